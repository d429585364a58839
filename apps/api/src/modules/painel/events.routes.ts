import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  BibAssignmentSchema,
  BibResultSchema,
  EventInputSchema,
  EventUpdateSchema,
  RegistrationsSwitchSchema,
  ShirtReportSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited } from '../staff/index.ts';
import {
  EVENT_READ,
  EVENTS,
  EventIdSchema,
  eventOrNotFound,
  eventRouteSchema,
  type PainelApp,
} from './events.common.ts';
import { photoUploadRoute } from './photos.ts';

/**
 * The event's form (read, create, edit), and what sits beside it: duplicate, close or reopen
 * registrations, bibs, shirts, the event's image (docs/decisions/0038). Participants are in
 * participants.routes.ts, check-in in checkin.routes.ts.
 */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  eventFormRoutes(app);
  eventActionRoutes(app);
};

const EventWire = z.object({ id: z.number().int() }).passthrough();

/** The form: read an event as it edits it, create one, save it with the version read. */
function eventFormRoutes(app: PainelApp) {
  const { tags, errors } = eventRouteSchema;

  app.get(
    '/events/:id/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary:
          'Um evento como o formulário o edita: preço próprio e lotes de cada categoria, vagas e camisas no total (com vendidas e restantes), tamanhos do kit com id, e a versão a devolver ao salvar',
        params: EventIdSchema,
        response: { 200: EventWire, ...errors },
      },
    },
    async (req) => app.events.getEventForStaff(req.params.id),
  );

  app.post(
    '/events/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Criar evento com dias e categorias (preço e vagas por categoria)',
        body: EventInputSchema,
        response: { 201: EventWire, ...errors },
      },
    },
    async (req, reply) => {
      const event = await audited(
        req,
        (tx) => app.events.admin.createEvent(tx, req.body),
        (id) => ({ action: 'criado', entity: 'evento', entityId: id, after: req.body }),
      );
      return reply.status(201).send(await app.events.getEvent(event));
    },
  );

  app.put(
    '/events/:id/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Editar evento com a versão lida (409 se outra pessoa salvou antes); vagas e camisas vão como total, e o que resta sai do total menos o vendido na hora de gravar; categorias mantêm o id, e uma com inscritos não pode ser removida',
        params: EventIdSchema,
        body: EventUpdateSchema,
        response: { 200: EventWire, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      await audited(
        req,
        async (tx) => {
          const before = await app.events.admin.updateEvent(tx, req.params.id, req.body);
          // More places may now be free for the waitlist's first in line (docs/decisions/0042).
          await app.registrationsAdmin.waitlist.nudge(tx);
          return before;
        },
        (before) => ({
          action: 'alterado',
          entity: 'evento',
          entityId: req.params.id,
          before,
          after: req.body,
        }),
      );
      return app.events.getEventForStaff(req.params.id);
    },
  );
}

/** Beside the form: duplicate, close or reopen registrations, bibs, shirts, the event's image. */
function eventActionRoutes(app: PainelApp) {
  const { tags, errors } = eventRouteSchema;

  app.post(
    '/events/:id/duplicar/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Duplicar o evento para o ano seguinte: datas +1 ano (dias, prazo, lotes e as datas escritas nos textos), mesmas categorias, idades, preços, vagas e camisas, regulamento e termo; sem inscrições, versão 1',
        params: EventIdSchema,
        response: { 201: EventWire, ...errors },
      },
    },
    async (req, reply) => {
      const id = await audited(
        req,
        (tx) => app.events.admin.duplicateEvent(tx, req.params.id),
        (created) => ({
          action: 'duplicado',
          entity: 'evento',
          entityId: created,
          after: { copia_de: req.params.id },
        }),
      );
      return reply.status(201).send(await app.events.getEventForStaff(id));
    },
  );

  app.post(
    '/events/:id/inscricoes/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Encerrar (abertas: false) ou reabrir (abertas: true) as inscrições do evento à mão; a loja passa a dizer que estão encerradas e novas inscrições são recusadas. Não muda a versão do formulário',
        params: EventIdSchema,
        body: RegistrationsSwitchSchema,
        response: { 200: EventWire, ...errors },
      },
    },
    async (req) => {
      await audited(
        req,
        (tx) => app.events.admin.setRegistrationsOpen(tx, req.params.id, req.body.abertas),
        (before) => ({
          action: req.body.abertas ? 'inscricoes_reabertas' : 'inscricoes_encerradas',
          entity: 'evento',
          entityId: req.params.id,
          before,
          after: { abertas: req.body.abertas },
        }),
      );
      return app.events.getEventForStaff(req.params.id);
    },
  );

  app.post(
    '/events/:id/numeros-de-peito/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Numerar os participantes (números de peito) em ordem alfabética: uma sequência só ou uma faixa por categoria; substitui a numeração anterior',
        params: EventIdSchema,
        body: BibAssignmentSchema,
        response: { 200: BibResultSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return audited(
        req,
        (tx) => app.registrationsAdmin.assignBibs(tx, req.params.id, req.body),
        (result) => ({
          action: 'numeros_de_peito',
          entity: 'evento',
          entityId: req.params.id,
          after: { ...req.body, resultado: result.categorias },
        }),
      );
    },
  );

  app.get(
    '/events/:id/camisas/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'Camisas por tamanho das inscrições válidas do evento (para o pedido à confecção)',
        params: EventIdSchema,
        response: { 200: ShirtReportSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return app.registrationsAdmin.shirtsBySize(req.params.id);
    },
  );

  photoUploadRoute(app, '/events/image/', 'eventos', {
    config: EVENTS,
    tags,
    summary:
      'Enviar a imagem de um evento (multipart, campo "foto"). Responde 202 com a foto em "processando"; ' +
      'a URL vai em imagem_evento quando GET /photos/:id/ a der como pronta',
  });
}
