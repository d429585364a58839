import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { PainelPhotoSchema } from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../plugins/errors.ts';

/** The state of an uploaded photo, which the back office polls until its resized files exist. */
export const photosRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/photos/:id/',
    {
      config: { painel: { permission: ['catalogo', 'eventos'] } },
      schema: {
        tags: ['painel: catálogo'],
        summary: 'Estado de uma foto enviada: processando, pronta ou falhou',
        params: IdParamSchema,
        response: {
          200: PainelPhotoSchema,
          401: ApiErrorSchema,
          403: ApiErrorSchema,
          404: ApiErrorSchema,
        },
      },
    },
    async (req) => {
      const photo = await app.photos.status(req.params.id);
      if (!photo) throw notFound('Foto não encontrada.');
      return photo;
    },
  );
};
