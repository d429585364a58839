import { ApiErrorSchema } from '@passada/core/contracts/common';
import { CouponPreviewRequestSchema, CouponPreviewSchema } from '@passada/core/contracts/coupons';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import { badRequest } from '../../plugins/errors.ts';
import type { CouponsService } from './coupons.service.ts';

/** The checkout's preview of a coupon, before any charge exists. */
export const couponsRoutes: FastifyPluginAsyncZod<{ coupons: CouponsService }> = async (app, { coupons }) => {
  const { env } = app;
  app.post(
    '/api/cupons/validar/',
    {
      // Guessing codes is an attack: a few tries per address and per account, counted in the database.
      config: {
        auth: 'user',
        limit: [
          { name: 'cupons', max: env.COUPONS_RATE_LIMIT_PER_IP, windowSeconds: 600 },
          {
            name: 'cupons-conta',
            max: env.COUPONS_RATE_LIMIT_PER_ACCOUNT,
            windowSeconds: 600,
            per: 'account',
          },
        ],
      },
      schema: {
        tags: ['cupons'],
        summary: 'Desconto de um cupom para o pedido ou a inscrição, calculado no servidor, antes de pagar',
        body: CouponPreviewRequestSchema,
        response: {
          200: CouponPreviewSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { cupom, finalidade, pedido, inscricao } = request.body;
      if (finalidade === 'troca')
        throw badRequest('Cupons não se aplicam à diferença de uma troca.', 'cupom_invalido');
      return finalidade === 'pedido'
        ? coupons.preview(user, 'order', cupom, pedido)
        : coupons.preview(user, 'registration', cupom, inscricao);
    },
  );
};
