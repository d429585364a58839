import { ApiErrorSchema } from '@passada/core/contracts/common';
import { ShippingQuoteRequestSchema, ShippingQuoteSchema } from '@passada/core/contracts/shipping';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { quoteShipping } from './shipping.service.ts';

export const shippingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/calcular-frete/',
    {
      schema: {
        tags: ['frete'],
        summary: 'Cotação de PAC e SEDEX para um CEP (e, opcionalmente, os itens do carrinho)',
        body: ShippingQuoteRequestSchema,
        response: { 200: ShippingQuoteSchema, 400: ApiErrorSchema, 502: ApiErrorSchema },
      },
    },
    async (req) =>
      quoteShipping(
        {
          db: app.deps.db,
          provider: app.deps.providers.shipping,
          originCep: app.deps.env.SHIPPING_ORIGIN_CEP,
          now: app.deps.now,
          log: req.log,
        },
        req.body,
      ),
  );
};
