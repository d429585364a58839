import multipart from '@fastify/multipart';
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
import { notFound } from '../../plugins/errors.ts';
import { MAX_PHOTO_BYTES, readUploadedPhoto } from '../../plugins/uploaded-images.ts';
import { sendStoredMedia } from '../../providers/storage/send-stored.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import { REVIEW_PHOTO_PATH } from './reviews.read-model.ts';
import type { Reviews } from './reviews.ts';

/** Verified reviews (docs/decisions/0071): the product's published ones, writing one, the account's own. */
export const reviewsRoutes: FastifyPluginAsyncZod<{ reviews: Reviews; storage: MediaStorage }> = async (
  app,
  { reviews, storage },
) => {
  const tags = ['avaliações'];
  await app.register(multipart, { limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 2 } });

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

  app.post(
    '/api/avaliacoes/:id/foto/',
    {
      config: {
        auth: 'user',
        limit: { name: 'fotos_avaliacao', max: app.env.REVIEW_PHOTO_RATE_LIMIT_PER_IP, windowSeconds: 3600 },
      },
      schema: {
        tags,
        summary:
          'Foto opcional da avaliação (JPEG, PNG, WebP ou HEIC), enquanto ela aguarda a moderação; uma segunda substitui a primeira',
        params: IdParamSchema,
        response: {
          200: z.object({ foto: z.string() }),
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          429: ApiErrorSchema,
        },
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => {
      const user = await requireUser(req);
      return reviews.attachPhoto(user.id, req.params.id, await readUploadedPhoto(req, 'Escolha a foto.'));
    },
  );

  app.get(
    `${REVIEW_PHOTO_PATH}:file`,
    {
      schema: {
        tags,
        summary: 'Foto de uma avaliação (WebP); some quando a avaliação é ocultada',
        params: z.object({ file: z.string().max(40) }),
      },
    },
    async (req, reply) => {
      const key = await reviews.shownPhoto(req.params.file);
      // Not immutable: hiding the review takes the photo away.
      const sent =
        key &&
        (await sendStoredMedia(req, reply, storage, {
          key,
          type: 'image/webp',
          cacheControl: 'public, max-age=300',
        }));
      if (!sent) throw notFound('Imagem não encontrada.');
      return sent;
    },
  );
};
