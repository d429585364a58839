import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  CouponInputSchema,
  PainelCouponListSchema,
  PainelCouponSchema,
} from '@passada/core/contracts/coupons';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audited, type PainelRouteConfig } from '../staff/index.ts';

const COUPONS = { painel: { permission: 'cupons' } } satisfies { painel: PainelRouteConfig };

const CouponIdSchema = IdParamSchema;

/** Discount coupons: admins list, create, edit and deactivate them (every write audited as `cupom`). */
export const couponsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: cupons'];
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

  app.get(
    '/cupons/',
    {
      config: COUPONS,
      schema: {
        tags,
        summary: 'Cupons com os usos (confirmados e reservados por cobranças em aberto)',
        response: { 200: PainelCouponListSchema, ...errors },
      },
    },
    () => app.coupons.admin.list(),
  );

  app.get(
    '/cupons/:id/',
    {
      config: COUPONS,
      schema: {
        tags,
        summary: 'Um cupom com os usos',
        params: CouponIdSchema,
        response: { 200: PainelCouponSchema, ...errors },
      },
    },
    (req) => app.coupons.admin.get(req.params.id),
  );

  app.post(
    '/cupons/',
    {
      config: COUPONS,
      schema: {
        tags,
        summary: 'Criar cupom (código único, sem diferenciar maiúsculas)',
        body: CouponInputSchema,
        response: { 201: PainelCouponSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req, reply) => {
      const created = await audited(
        req,
        (tx) => app.coupons.admin.create(tx, req.body),
        (coupon) => ({ action: 'criado', entity: 'cupom', entityId: coupon.id, after: req.body }),
      );
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/cupons/:id/',
    {
      config: COUPONS,
      schema: {
        tags,
        summary: 'Editar ou desativar cupom (ativo: false); os usos já feitos continuam registrados',
        params: CouponIdSchema,
        body: CouponInputSchema,
        response: { 200: PainelCouponSchema, ...errors, 409: ApiErrorSchema },
      },
    },
    async (req) => {
      const { after } = await audited(
        req,
        (tx) => app.coupons.admin.update(tx, req.params.id, req.body),
        ({ before, after }) => ({
          action: req.body.ativo === before.ativo ? 'alterado' : req.body.ativo ? 'ativado' : 'desativado',
          entity: 'cupom',
          entityId: after.id,
          before,
          after: req.body,
        }),
      );
      return after;
    },
  );
};
