import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  OpeningStatusSchema,
  QueueTicketSchema,
  QueueTokenQuerySchema,
} from '@passada/core/contracts/opening';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import { notFound } from '../../plugins/errors.ts';
import type { OpeningService } from './opening.service.ts';

/** The runner's side of an opening: what the page shows, joining the queue, and the position polls. */
export const openingRoutes: FastifyPluginAsyncZod<{ opening: OpeningService }> = async (app, { opening }) => {
  const tags = ['abertura'];

  app.get(
    '/api/events/:id/abertura/',
    {
      schema: {
        tags,
        summary:
          'Como o evento abre as inscrições (sala de espera ou sorteio), quando, e em que fase está; null: abre como sempre',
        params: IdParamSchema,
        response: { 200: OpeningStatusSchema.nullable() },
      },
    },
    async (request) => opening.status(request.params.id),
  );

  app.post(
    '/api/events/:id/fila/',
    {
      // Per address, generous: at the opening minute many runners share a carrier's address (CGNAT).
      config: {
        auth: 'user',
        limit: { name: 'fila', max: app.env.OPENING_JOIN_RATE_LIMIT_PER_IP, windowSeconds: 60 },
      },
      schema: {
        tags,
        summary:
          'Entra na fila da abertura (uma vez por conta: outra aba ou outro aparelho recebe o mesmo lugar) e responde a vez assinada',
        params: IdParamSchema,
        response: { 200: QueueTicketSchema, 401: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema },
      },
    },
    async (request) => opening.join(request.params.id, (await requireUser(request)).id),
  );

  app.get(
    '/api/events/:id/fila/',
    {
      // A bodiless request with a small answer (under the compression threshold): no hooks for either.
      compress: false,
      decompress: false,
      // The schemas below document the route; the poll checks its two inputs itself (the turn's own
      // pattern and MAC in `poll`), instead of a schema validation of each part on every poll.
      validatorCompiler: () => (value) => ({ value }),
      schema: {
        tags,
        summary:
          'Lugar na fila, espera estimada e, admitido, até quando vale a vez; lido da vez assinada, sem consultar o banco',
        params: IdParamSchema,
        querystring: QueueTokenQuerySchema,
        response: { 200: QueueTicketSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params as unknown as { id: string };
      const { vez } = request.query as { vez?: unknown };
      const eventId = /^[1-9]\d{0,9}$/.test(id) ? Number(id) : 0;
      if (!eventId) throw notFound('Evento não encontrado.');
      const ticket = opening.poll(eventId, typeof vez === 'string' ? vez : '');
      // Built by the service from the contract's type: sent as JSON text, without validating it again
      // on every poll (the page sends one every few seconds per runner).
      return (reply as FastifyReply)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(ticket));
    },
  );
};

export const OpeningEventIdSchema = IdParamSchema;
