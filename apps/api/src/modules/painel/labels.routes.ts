import { IdParamSchema } from '@passada/core/contracts/common';
import {
  LabelPrintQuerySchema,
  LabelPurchaseResultSchema,
  LabelPurchaseSchema,
  PainelLabelSchema,
} from '@passada/core/contracts/shipping-labels';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { badRequest } from '../../plugins/errors.ts';
import { storeToday } from '../orders/orders-admin.ts';
import { actor, auditedAfter, PAINEL_ERRORS } from '../staff/index.ts';

/** The carrier staff read for each label provider. */
const CARRIER_NAMES = {
  melhorenvio: 'Melhor Envio',
  correios: 'Correios',
  offline: 'Correios (offline)',
} as const;

/** Shipping labels from the orders list (docs/decisions/0044): buy ("Gerar etiquetas") and print. */
export const labelsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['painel: pedidos'];
  const max = app.env.LABELS_MAX_PER_REQUEST;

  app.post(
    '/orders/labels/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Comprar as etiquetas de envio dos pedidos (uma por pedido, nunca duas; o código de rastreio vem da transportadora)',
        body: LabelPurchaseSchema,
        response: { 200: LabelPurchaseResultSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const pedidos = [...new Map(req.body.pedidos.map((p) => [p.id, p])).values()];
      if (pedidos.length > max)
        throw badRequest(`No máximo ${max} pedidos por vez.`, 'muitos_pedidos', {
          pedidos: `No máximo ${max} pedidos por vez.`,
        });
      const who = actor(req);
      // The order's authorised NF-e goes on the label (docs/decisions/0043); a key staff typed wins.
      const withKeys = await Promise.all(
        pedidos.map(async (p) => ({
          id: p.id,
          nfeKey: p.chave_nfe ?? (await app.fiscal.authorisedNfeKey(p.id)),
        })),
      );
      const resultados = await app.labels.buy(withKeys, { name: who.name });
      await auditedAfter(
        req,
        resultados
          .filter((r) => r.situacao === 'comprada')
          .map((r) => ({
            action: 'etiqueta',
            entity: 'pedido',
            entityId: r.pedido,
            before: null,
            after: { codigo_rastreio: r.codigo_rastreio },
          })),
      );
      return { resultados };
    },
  );

  app.get(
    '/orders/:id/etiqueta/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'A etiqueta de envio do pedido: comprada (rastreio), cancelada com o pedido, ou o motivo de a transportadora não a cancelar',
        params: IdParamSchema,
        response: { 200: PainelLabelSchema.nullable(), ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const row = await app.labels.ofOrder(req.params.id);
      if (!row) return null;
      return {
        situacao: row.status,
        transportadora: CARRIER_NAMES[row.provider],
        codigo_rastreio: row.trackingCode,
        comprada_em: row.purchasedAt?.toISOString() ?? null,
        cancelada_em: row.cancelledAt?.toISOString() ?? null,
        cancelamento_recusado: row.cancelRefusal,
      } satisfies z.infer<typeof PainelLabelSchema>;
    },
  );

  app.get(
    '/orders/labels.pdf',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'As etiquetas compradas dos pedidos, num só PDF (ou a página de impressão da transportadora)',
        querystring: LabelPrintQuerySchema,
      },
    },
    async (req, reply) => {
      const ids = req.query.pedidos;
      if (ids.length > max)
        throw badRequest(`No máximo ${max} pedidos por vez.`, 'muitos_pedidos', {
          pedidos: `No máximo ${max} pedidos por vez.`,
        });
      const printed = await app.labels.print(ids);
      // The provider's own print page: the painel opens it (a redirect would cross origins).
      if ('url' in printed) return { url: printed.url };
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="etiquetas-${storeToday(app.now())}.pdf"`)
        .header('cache-control', 'no-store')
        .send(printed.pdf);
    },
  );
};
