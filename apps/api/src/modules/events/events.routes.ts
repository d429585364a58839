import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { EventListAnswerSchema, EventListQuerySchema, EventSchema } from '@passada/core/contracts/events';
import { EventPriceRuleSchema } from '@passada/core/contracts/price-rules';
import { EventWavesSchema } from '@passada/core/contracts/waves';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AnswerCache, PRECOMPRESSED } from '../../plugins/answer-cache.ts';
import { sendKept } from '../../plugins/front-door.ts';
import type { EventWavesService } from './event-waves.service.ts';
import type { EventsService } from './events.service.ts';

/**
 * Running events (docs/product.md §7): list, paged list, one event, and the generated posters. The
 * list and event answers are built from the contracts' types by the service and kept serialized
 * (answer-cache.ts) until an event, its places, kits or lots change; `cache()` answers the cache
 * after dropping it when a new day began. Each depends on the address alone, so the server's door
 * answers a repeated address, asking `cache()` as the route does (decision 0089).
 */
export const eventsRoutes: FastifyPluginAsyncZod<{
  events: EventsService;
  waves: EventWavesService;
  cache: () => AnswerCache;
}> = async (app, { events, waves, cache }) => {
  app.get(
    '/api/events/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags: ['eventos'],
        summary: 'Eventos por data de início; com ?page=N (e page_size, padrão 9) responde uma página',
        querystring: EventListQuerySchema,
        response: { 200: EventListAnswerSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { page, page_size: size } = request.query;
      const key = page === undefined ? 'list' : `page:${page}:${size}`;
      return sendKept(request, reply, cache, key, () => events.listEvents(request.query));
    },
  );

  app.get(
    '/api/events/:id/ondas/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags: ['eventos'],
        summary:
          'As ondas de largada de cada prova do evento, da mais rápida à última, com o tempo estimado que cada uma recebe',
        params: IdParamSchema,
        response: { 200: EventWavesSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendKept(request, reply, cache, `waves:${id}`, async () => {
        await events.getEvent(id);
        return waves.ofEvent(id);
      });
    },
  );

  app.get(
    '/api/events/:id/regras-preco/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags: ['eventos'],
        summary:
          'Os preços especiais por público de cada categoria (estudante, professor, PCD, lista do organizador), com o preço do lote atual e se ainda há vagas',
        params: IdParamSchema,
        response: { 200: z.array(EventPriceRuleSchema), 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendKept(request, reply, cache, `rules:${id}`, async () => {
        await events.getEvent(id);
        return events.priceRules.ofEvent(id);
      });
    },
  );

  app.get(
    '/api/events/:id/',
    {
      ...PRECOMPRESSED,
      schema: {
        tags: ['eventos'],
        summary: 'Um evento com seus dias e categorias',
        params: IdParamSchema,
        response: { 200: EventSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendKept(request, reply, cache, `event:${id}`, () => events.getEvent(id));
    },
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
