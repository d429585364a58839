import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  PainelReviewQuerySchema,
  PainelReviewSchema,
  ReviewModerationSchema,
} from '@passada/core/contracts/reviews';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audited, PAINEL_ERRORS } from '../staff/index.ts';
import { CATALOG } from './catalog-wire.ts';

/** Verified reviews' moderation (docs/decisions/0071): the queue by state, publishing or hiding with a reason. */
export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const reviews = app.orders.reviews;
  const tags = ['painel: avaliações'];
  const errors = { ...PAINEL_ERRORS, 404: ApiErrorSchema };

  app.get(
    '/avaliacoes/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary: 'Avaliações num estado (aguardando por padrão), das mais antigas',
        querystring: PainelReviewQuerySchema,
        response: { 200: z.array(PainelReviewSchema), ...errors },
      },
    },
    async (req) => reviews.painelList(req.query.estado),
  );

  app.post(
    '/avaliacoes/:id/moderacao/',
    {
      config: CATALOG,
      schema: {
        tags,
        summary:
          'Publicar uma avaliação, ou ocultá-la com o motivo; a média do produto passa a contar as publicadas',
        params: IdParamSchema,
        body: ReviewModerationSchema,
        response: { 200: z.object({ estado: z.enum(['publicada', 'oculta']) }), ...errors },
      },
    },
    async (req) =>
      audited(
        req,
        async (tx) => {
          const row = await reviews.moderate(tx, req.params.id, req.body);
          return { estado: row.status as 'publicada' | 'oculta', productId: row.productId };
        },
        (r) => ({
          action: r.estado === 'publicada' ? 'avaliacao_publicada' : 'avaliacao_oculta',
          entity: 'produto',
          entityId: r.productId,
          after: {
            avaliacao: req.params.id,
            ...(req.body.acao === 'ocultar' ? { motivo: req.body.motivo } : {}),
          },
        }),
      ).then(({ estado }) => ({ estado })),
  );
};
