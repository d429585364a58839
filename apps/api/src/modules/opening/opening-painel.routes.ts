import { ApiErrorSchema } from '@passada/core/contracts/common';
import { OpeningUpdateSchema, PainelOpeningSchema } from '@passada/core/contracts/opening';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audited, type PainelRouteConfig } from '../staff/index.ts';
import { OpeningEventIdSchema } from './opening.routes.ts';

type Declared = { painel: PainelRouteConfig };
const EVENTS = { painel: { permission: 'eventos' } } satisfies Declared;

/** The organiser's side of an opening (under /api/painel): its settings and the live view. */
export const openingPainelRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: eventos'];
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

  app.get(
    '/events/:id/abertura/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'A abertura do evento: modo, data e hora, ritmo, vez e limites, e ao vivo: na fila, admitidos, pagando, pagas, vagas',
        params: OpeningEventIdSchema,
        response: { 200: PainelOpeningSchema, ...errors },
      },
    },
    async (req) => app.opening.painelView(req.params.id),
  );

  app.put(
    '/events/:id/abertura/',
    {
      config: EVENTS,
      schema: {
        tags,
        summary:
          'Salva a abertura do evento (sala de espera ou sorteio); com a versão lida, recusa se outra pessoa salvou antes',
        params: OpeningEventIdSchema,
        body: OpeningUpdateSchema,
        response: { 200: PainelOpeningSchema, 409: ApiErrorSchema, ...errors },
      },
    },
    async (req) => {
      await audited(
        req,
        async (tx) => {
          const event = await app.events.findEventRow(req.params.id, tx);
          await app.opening.save(tx, req.params.id, req.body, event !== undefined);
        },
        { action: 'abertura_salva', entity: 'evento', entityId: req.params.id, after: req.body },
      );
      await app.opening.refresh();
      return app.opening.painelView(req.params.id);
    },
  );
};
