import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  MyReviewsSchema,
  ProductReviewsSchema,
  ReviewInputSchema,
  ReviewPageQuerySchema,
} from '@passada/core/contracts/reviews';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { Reviews } from './reviews.ts';

/** Verified reviews (docs/decisions/0071): the product's published ones, writing one, the account's own. */
export const reviewsRoutes: FastifyPluginAsyncZod<{ reviews: Reviews }> = async (app, { reviews }) => {
  const tags = ['avaliações'];

  app.get(
    '/api/products/:id/avaliacoes/',
    {
      schema: {
        tags,
        summary: 'Avaliações publicadas do produto, das mais novas, com a média, o total e o caimento',
        params: IdParamSchema,
        querystring: ReviewPageQuerySchema,
        response: { 200: ProductReviewsSchema, 400: ApiErrorSchema },
      },
    },
    async (req) => reviews.ofProduct(req.params.id, req.query.page ?? 1),
  );

  app.post(
    '/api/avaliacoes/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'Avaliar um item de um pedido entregue da conta (uma vez por item; item devolvido não se avalia); fica aguardando a moderação',
        body: ReviewInputSchema,
        response: {
          201: z.object({ id: z.number().int(), estado: z.literal('pendente') }),
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (req, reply) => reply.status(201).send(await reviews.create(await requireUser(req), req.body)),
  );

  app.get(
    '/api/avaliacoes/minhas/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'As avaliações da conta, por item de pedido, e onde cada uma está',
        response: { 200: MyReviewsSchema, 401: ApiErrorSchema },
      },
    },
    async (req) => reviews.mine((await requireUser(req)).id),
  );
};
