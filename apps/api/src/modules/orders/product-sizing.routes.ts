import { ProductSizingSchema } from '@passada/core/contracts/catalog';
import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import { fitHint } from '@passada/core/fit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fitFacts } from './fit-facts.read-model.ts';

/**
 * A product's size guide (the catalogue's, kept by staff) and how it fits by the shop's own exchanges
 * (docs/decisions/0070). Served here, beside the exchanges it counts; the guide is the catalogue's read.
 */
export const productSizingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/products/:id/tamanhos/',
    {
      schema: {
        tags: ['produtos'],
        summary:
          'Guia de medidas do produto e como ele costuma vestir, pelas trocas de tamanho da loja (só a partir de um mínimo de trocas)',
        params: IdParamSchema,
        response: { 200: ProductSizingSchema, 404: ApiErrorSchema },
      },
    },
    async (req, reply) => {
      const guia = await app.catalog.sizeGuide(req.params.id);
      const hint = fitHint(await fitFacts(app.db, req.params.id), app.env.FIT_HINT_MIN_EXCHANGES);
      // The same for every shopper, and it moves only with exchanges finished: a few minutes' copy is fine.
      reply.header('cache-control', 'public, max-age=300');
      return {
        guia,
        caimento: hint && {
          veste: hint.verdict,
          texto: hint.text,
          entregues: hint.delivered,
          trocas_para_maior: hint.toBigger,
          trocas_para_menor: hint.toSmaller,
        },
      };
    },
  );
};
