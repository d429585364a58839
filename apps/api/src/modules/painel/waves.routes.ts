import { ApiErrorSchema, IdParamSchema, IdTextSchema } from '@passada/core/contracts/common';
import { PainelWavesSchema, WavesBodySchema, WavesGivenSchema } from '@passada/core/contracts/waves';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited, PAINEL_ERRORS } from '../staff/index.ts';
import { EVENT_READ, EVENTS, eventOrNotFound } from './events.common.ts';

/**
 * Start waves by estimated finish time (docs/decisions/0066): each category's waves with their ranges,
 * caps and runners, and the organiser's audited edit of one category's waves (`app.events.waves`).
 */
export const wavesRoutes: FastifyPluginAsyncZod = async (app) => {
  const waves = app.events.waves;
  const tags = ['painel: eventos'];
  const errors = { ...PAINEL_ERRORS, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema };

  app.get(
    '/events/:id/ondas/',
    {
      config: EVENT_READ,
      schema: {
        tags,
        summary:
          'As ondas de largada de cada categoria do evento: tempos limite, vagas e inscritos em cada uma',
        params: IdParamSchema,
        response: { 200: PainelWavesSchema, ...errors },
      },
    },
    async (req) => {
      await eventOrNotFound(app, req.params.id);
      return waves.forStaff(req.params.id, (ids) => app.registrations.waveCounts(ids));
    },
  );

  app.put(
    '/events/:id/categorias/:categoria/ondas/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Definir as ondas de largada de uma categoria, em ordem (a última sem tempo limite nem limite de vagas); quem já tem onda fica nela',
        params: z.object({ id: IdTextSchema, categoria: IdTextSchema }),
        body: WavesBodySchema,
        response: { 200: PainelWavesSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) =>
          waves.save(tx, req.params.id, req.params.categoria, req.body, (ids) =>
            app.registrations.waveCounts(ids, tx),
          ),
        (after) => ({
          action: 'ondas_alteradas',
          entity: 'evento',
          entityId: req.params.id,
          after: after.find((c) => c.categoria_id === req.params.categoria) ?? null,
        }),
      ),
  );

  app.post(
    '/events/:id/categorias/:categoria/ondas/distribuir/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Dar onda a quem ainda não tem: inscritos da categoria antes das ondas existirem, dos tempos mais rápidos aos sem tempo; quem já tem onda fica nela',
        params: z.object({ id: IdTextSchema, categoria: IdTextSchema }),
        response: { 200: WavesGivenSchema, ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        (tx) =>
          waves.giveMissing(
            tx,
            req.params.id,
            req.params.categoria,
            app.registrations.giveMissingWaves,
            (ids) => app.registrations.waveCounts(ids, tx),
          ),
        (after) => ({
          action: 'ondas_distribuidas',
          entity: 'evento',
          entityId: req.params.id,
          after: { categoria: req.params.categoria, atribuidas: after.atribuidas },
        }),
      ),
  );
};
