import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { EventListAnswerSchema, EventListQuerySchema, EventSchema } from '@passada/core/contracts/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EventsService } from './events.service.ts';

/** Running events (docs/product.md §7): list, paged list, one event, and the generated posters. */
export const eventsRoutes: FastifyPluginAsyncZod<{ events: EventsService }> = async (app, { events }) => {
  app.get(
    '/api/events/',
    {
      schema: {
        tags: ['eventos'],
        summary: 'Eventos por data de início; com ?page=N (e page_size, padrão 9) responde uma página',
        querystring: EventListQuerySchema,
        response: { 200: EventListAnswerSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => events.listEvents(request.query),
  );

  app.get(
    '/api/events/:id/',
    {
      schema: {
        tags: ['eventos'],
        summary: 'Um evento com seus dias e categorias',
        params: IdParamSchema,
        response: { 200: EventSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => events.getEvent(request.params.id),
  );

  app.get(
    '/api/media/events/:file',
    { schema: { hide: true, params: z.object({ file: z.string() }) } },
    async (request, reply) => {
      const svg = await events.getPoster(request.params.file);
      // The file name is the hash of the bytes, so the answer never changes.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  );
};
