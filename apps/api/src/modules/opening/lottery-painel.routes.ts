import { ApiErrorSchema } from '@passada/core/contracts/common';
import { PainelOpeningSchema } from '@passada/core/contracts/opening';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited, type PainelRouteConfig } from '../staff/index.ts';
import { OpeningEventIdSchema } from './opening.routes.ts';

type Declared = { painel: PainelRouteConfig };
const EVENTS = { painel: { permission: 'eventos' } } satisfies Declared;

/**
 * The organiser's lottery actions (under /api/painel): the commitment and the draws; and removing an
 * opening (the event opens as usual again): a waiting room at any time, a lottery without entries.
 */
export const lotteryPainelRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: eventos'];
  const errors = {
    401: ApiErrorSchema,
    403: ApiErrorSchema,
    404: ApiErrorSchema,
    409: ApiErrorSchema,
  };

  app.post(
    '/events/:id/sorteio/compromisso/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Publica o compromisso do sorteio (SHA-256 de uma semente secreta), antes de as inscrições no sorteio fecharem',
        params: OpeningEventIdSchema,
        response: { 200: PainelOpeningSchema, ...errors },
      },
    },
    async (req) => {
      await audited(req, (tx) => app.lottery.commit(tx, req.params.id), {
        action: 'sorteio_compromisso_publicado',
        entity: 'evento',
        entityId: req.params.id,
      });
      return app.opening.painelView(req.params.id);
    },
  );

  app.post(
    '/events/:id/sorteio/sortear/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Sorteia: o primeiro sorteio publica a semente e a classificação; os seguintes chamam os próximos para as vagas não pagas no prazo',
        params: OpeningEventIdSchema,
        response: { 200: PainelOpeningSchema, ...errors },
      },
    },
    async (req) => {
      await audited(req, (tx) => app.lottery.draw(tx, req.params.id), {
        action: 'sorteio_realizado',
        entity: 'evento',
        entityId: req.params.id,
      });
      return app.opening.painelView(req.params.id);
    },
  );

  app.delete(
    '/events/:id/abertura/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Remove a abertura do evento (volta a abrir como sempre): encerra a sala de espera a qualquer momento; um sorteio só enquanto não tem inscritos',
        params: OpeningEventIdSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await audited(req, (tx) => app.opening.remove(tx, req.params.id), {
        action: 'abertura_removida',
        entity: 'evento',
        entityId: req.params.id,
      });
      await app.opening.refresh();
      return reply.code(204).send(null);
    },
  );
};
