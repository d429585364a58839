import { ApiErrorSchema } from '@passada/core/contracts/common';
import { ShippingQuoteRequestSchema, ShippingQuoteSchema } from '@passada/core/contracts/shipping';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ShippingService } from './shipping.service.ts';

export const shippingRoutes: FastifyPluginAsyncZod<{ shipping: ShippingService }> = async (
  app,
  { shipping },
) => {
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
    async (req) => shipping.quote(req.body, { log: req.log }),
  );
};
