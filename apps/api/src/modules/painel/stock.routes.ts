import { ApiErrorSchema } from '@passada/core/contracts/common';
import {
  LowStockItemSchema,
  LowStockQuerySchema,
  STOCK_REASON_LABELS,
  StockBatchLineSchema,
  StockBatchSchema,
  StockChangeSchema,
  StockComboQuerySchema,
  StockFilePreviewResultSchema,
  StockFilePreviewSchema,
  StockMovementSchema,
  skuOf,
  stockBatchLabel,
} from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';
import { actor, audited } from '../staff/index.ts';
import { catalogRouteSchema, STOCK } from './catalog-wire.ts';
import { csvLine, sendCsv } from './csv.ts';

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

  // Several combinations at once (docs/decisions/0081): a goods receipt's grid, a count, a stock file.
  app.post(
    '/stock/lote/',
    {
      config: STOCK,
      // Up to 256 bytes per line allowed, never less than the shop's usual 1 MB.
      bodyLimit: Math.max(1024 * 1024, app.env.STOCK_BATCH_MAX_LINES * 256),
      schema: {
        tags,
        summary:
          'Mudar o estoque de várias cores × tamanhos de uma vez (recebimento de mercadoria, contagem, arquivo), tudo ou nada',
        body: StockBatchSchema,
        response: {
          200: z.object({ linhas: z.array(StockBatchLineSchema) }),
          ...errors,
          409: ApiErrorSchema,
        },
      },
    },
    async (req) => {
      const b = req.body;
      const staffId = actor(req).id;
      const linhas = await audited(
        req,
        async (tx) => {
          const lines = await admin.applyStockBatch(tx, b, staffId, app.env.STOCK_BATCH_MAX_LINES);
          // Units back on sale: whoever asked "Avise-me quando chegar" is told now.
          if (lines.some((l) => l.diferenca > 0)) await app.catalog.stockAlerts.nudge(tx);
          return lines;
        },
        (lines) => ({
          action: `estoque_${b.motivo}_em_lote`,
          entity: 'estoque',
          entityId: null,
          after: {
            motivo: STOCK_REASON_LABELS[b.motivo],
            observacao: b.observacao,
            linhas: lines
              .filter((l) => l.diferenca !== 0)
              .map((l) => `${stockBatchLabel(l)}: ${l.antes} → ${l.depois}`),
          },
        }),
      );
      return { linhas };
    },
  );

  app.post(
    '/stock/importar/previa/',
    {
      config: STOCK,
      // The file travels as text in the body: up to 256 bytes per line allowed.
      bodyLimit: Math.max(1024 * 1024, app.env.STOCK_BATCH_MAX_LINES * 256),
      schema: {
        tags,
        summary:
          'Conferir um arquivo de estoque (SKU e quantidade, CSV do Excel pt-BR): o que mudaria em cada linha, sem gravar nada',
        body: StockFilePreviewSchema,
        response: { 200: StockFilePreviewResultSchema, ...errors },
      },
    },
    async (req) => admin.previewStock(req.body.arquivo, req.body.modo, app.env.STOCK_BATCH_MAX_LINES),
  );

  app.get(
    '/stock.csv',
    {
      config: STOCK,
      schema: {
        tags,
        summary:
          'O estoque de todas as cores × tamanhos em CSV (SKU, produto, cor, tamanho, estoque; UTF-8 com BOM, separador ;), para contar e importar de volta',
      },
    },
    async (_req, reply) =>
      sendCsv(reply, 'estoque.csv', [
        csvLine(['SKU', 'Produto', 'Cor', 'Tamanho', 'Estoque']),
        ...(await admin.stockLines()).map((n) =>
          csvLine([skuOf(n.productId, n.colorId, n.sizeId), n.productName, n.color, n.size, n.quantity]),
        ),
      ]),
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
