import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import {
  ResultImportBodySchema,
  ResultLinksSchema,
  ResultPreviewSchema,
  ResultPublishSchema,
  TimerBodySchema,
  TimerSchema,
} from '@passada/core/contracts/results';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited, creation, PAINEL_ERRORS } from '../staff/index.ts';
import { EVENT_READ, EVENTS, EventIdSchema, eventOrNotFound } from './events.common.ts';

const ImportParamsSchema = z.object({ id: IdTextSchema, importacao: IdTextSchema });

/**
 * Results after the finish line (docs/decisions/0064): the timers and their columns, a timer's file
 * read into a preview, and its publication, each an audited call to `app.results.admin`.
 */
export const resultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.results.admin;
  const tags = ['painel: resultados'];
  const errors = { ...PAINEL_ERRORS, 404: ApiErrorSchema, 409: ApiErrorSchema };

  app.get(
    '/cronometragens/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'Cronometragens e as colunas do arquivo de cada uma',
        response: { 200: z.array(TimerSchema), ...errors },
      },
    },
    async () => admin.timers(),
  );

  app.post(
    '/cronometragens/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Cadastrar uma cronometragem e as colunas do arquivo dela (usadas em todas as importações)',
        body: TimerBodySchema,
        response: { 201: TimerSchema, ...errors },
      },
    },
    async (req, reply) => {
      const timer = await audited(req, (tx) => admin.saveTimer(tx, req.body), creation('cronometragem'));
      return reply.status(201).send(timer);
    },
  );

  app.put(
    '/cronometragens/:id/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary: 'Alterar o nome ou as colunas de uma cronometragem',
        params: IdParamSchema,
        body: TimerBodySchema,
        response: { 200: TimerSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.saveTimer(tx, req.body, req.params.id),
        (timer) => ({ action: 'alterado', entity: 'cronometragem', entityId: timer.id, after: timer }),
      ),
  );

  app.post(
    '/events/:id/resultados/importacoes/',
    {
      config: EVENTS,
      // The file travels as text in the body: up to 256 bytes per line allowed.
      bodyLimit: app.env.RESULTS_IMPORT_MAX_LINES * 256,
      schema: {
        tags,
        summary:
          'Ler o arquivo da cronometragem (CSV ou TXT; ; , ou tabulação) numa prévia: nada é publicado; lista as linhas sem participante e o motivo',
        params: EventIdSchema,
        body: ResultImportBodySchema,
        response: { 201: ResultPreviewSchema, ...errors },
      },
    },
    async (req, reply) => {
      await eventOrNotFound(app, req.params.id);
      const preview = await audited(
        req,
        (tx) => admin.importFile(tx, req.params.id, req.body),
        (p) => ({
          action: 'resultados_importados',
          entity: 'evento',
          entityId: req.params.id,
          after: { importacao: p.id, arquivo: p.arquivo, dia: p.dia, linhas: p.linhas, validas: p.validas },
        }),
      );
      return reply.status(201).send(preview);
    },
  );

  app.get(
    '/events/:id/resultados/importacoes/:importacao/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary: 'A prévia de uma importação, conferida de novo com os números de peito de agora',
        params: ImportParamsSchema,
        response: { 200: ResultPreviewSchema, ...errors },
      },
    },
    async (req) => admin.showImport(req.params.id, req.params.importacao),
  );

  app.get(
    '/events/:id/resultados/loja/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary:
          'A camisa finisher e a próxima edição que a página de cada concluinte e o e-mail de resultado mostram',
        params: EventIdSchema,
        response: { 200: ResultLinksSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return admin.links(req.params.id);
    },
  );

  app.put(
    '/events/:id/resultados/loja/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Definir a camisa finisher (um produto do catálogo) e a próxima edição (um evento depois deste); null tira',
        params: EventIdSchema,
        body: ResultLinksSchema,
        response: { 200: ResultLinksSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.saveLinks(tx, req.params.id, req.body),
        (after) => ({ action: 'alterado', entity: 'resultados_loja', entityId: req.params.id, after }),
      ),
  );

  app.post(
    '/events/:id/resultados/importacoes/:importacao/publicar/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Publicar uma importação: substitui os resultados do evento (do dia do arquivo) numa transação e calcula as colocações',
        params: ImportParamsSchema,
        response: { 200: ResultPublishSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) => admin.publish(tx, req.params.id, req.params.importacao),
        (r) => ({
          action: 'resultados_publicados',
          entity: 'evento',
          entityId: req.params.id,
          after: { importacao: req.params.importacao, ...r },
        }),
      ),
  );
};
