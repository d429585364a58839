import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  LowStockItemSchema,
  LowStockQuerySchema,
  StockChangeSchema,
  StockComboQuerySchema,
  StockMovementSchema,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';
import { actor, audited } from '../staff/index.ts';
import { catalogRouteSchema, STOCK } from './catalog-wire.ts';

/** Stock: changes with a reason, each combination's history, low stock (docs/decisions/0033). */
export const stockRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.catalog.admin;
  const { tags, errors } = catalogRouteSchema;

  app.post(
    '/stock/',
    {
      config: STOCK,
      schema: {
        tags,
        summary: 'Ajustar (+/−) ou definir o estoque de uma cor × tamanho, com o motivo',
        body: StockChangeSchema,
        response: {
          200: z.object({ before: z.number().int(), after: z.number().int(), delta: z.number().int() }),
          ...errors,
          409: ApiErrorSchema,
        },
      },
    },
    async (req) => {
      const b = req.body;
      if (b.modo === 'definir' && b.quantidade < 0) {
        throw badRequest('A quantidade contada não pode ser negativa.', 'validation_error', {
          quantidade: 'A quantidade contada não pode ser negativa.',
        });
      }
      if (b.modo === 'ajustar' && b.quantidade === 0) {
        throw badRequest('Informe quantas unidades entram (+) ou saem (−).', 'validation_error', {
          quantidade: 'Informe quantas unidades entram (+) ou saem (−).',
        });
      }
      const combo = { productId: b.product_id, colorId: b.color_id, sizeId: b.size_id };
      return audited(
        req,
        async (tx) => {
          const result = await admin.changeStock(
            tx,
            combo,
            b.modo === 'definir' ? { set: b.quantidade } : { delta: b.quantidade },
            {
              reason: b.motivo,
              note: b.observacao,
              staffId: actor(req).id,
            },
          );
          // Units back on sale: whoever asked "Avise-me quando chegar" is told now, not within the minute.
          if (result.after > result.before) await app.catalog.stockAlerts.nudge(tx);
          return result;
        },
        (result) => ({
          action: `estoque_${b.motivo}`,
          entity: 'estoque',
          entityId: `${b.product_id}/${b.color_id}/${b.size_id}`,
          before: { quantidade: result.before },
          after: { quantidade: result.after, observacao: b.observacao },
        }),
      );
    },
  );

  app.get(
    '/stock/history/',
    {
      config: STOCK,
      schema: {
        tags,
        summary: 'Histórico de uma combinação cor × tamanho',
        querystring: StockComboQuerySchema,
        response: { 200: z.array(StockMovementSchema), ...errors },
      },
    },
    async (req) => {
      const rows = await admin.stockHistory({
        productId: req.query.product_id,
        colorId: req.query.color_id,
        sizeId: req.query.size_id,
      });
      return rows.map((r) => ({
        id: r.id,
        delta: r.delta,
        quantity_after: r.quantityAfter,
        reason: r.reason,
        note: r.note,
        staff_email: r.staffEmail,
        order_id: r.orderId,
        at: r.at.toISOString(),
      }));
    },
  );

  app.get(
    '/stock/low/',
    {
      config: STOCK,
      schema: {
        tags,
        summary: 'Combinações com estoque até o limite (produtos visíveis)',
        querystring: LowStockQuerySchema,
        response: { 200: z.array(LowStockItemSchema), ...errors },
      },
    },
    async (req) =>
      (await admin.lowStock(req.query.limite)).map((r) => ({
        product_id: r.productId,
        product_name: r.productName,
        color: r.color,
        color_id: r.colorId,
        size: r.size,
        size_id: r.sizeId,
        quantity: r.quantity,
      })),
  );
};
