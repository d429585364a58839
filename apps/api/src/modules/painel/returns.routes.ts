import { IdParamSchema } from '@passada/core/contracts/common';
import {
  ExchangeShipSchema,
  OrderRefundPartSchema,
  OrderRefundsSchema,
  PainelReturnListSchema,
  PainelReturnSchema,
  ReturnCodeSchema,
  ReturnPostedSchema,
  ReturnReceiveSchema,
  ReturnRefundSchema,
  ReturnRefuseSchema,
} from '@passada/core/contracts/returns';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { returnAuditShape } from '../orders/returns-admin.ts';
import { audited, PAINEL_ERRORS } from '../staff/index.ts';

const ReturnIdSchema = IdParamSchema;

/**
 * The returns queue (docs/decisions/0036): receive the items, send a posting code, refuse with a reason,
 * or refund (only roles that may move money). One audited call each; the refund reaches the provider
 * after the commit.
 */
export const returnsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.orders.returnsAdmin;
  const tags = ['painel: devoluções'];
  const audit =
    (action: string) =>
    (r: {
      before: Parameters<typeof returnAuditShape>[0];
      after: Parameters<typeof returnAuditShape>[0];
    }) => ({
      action,
      entity: 'devolucao',
      entityId: r.after.id,
      before: returnAuditShape(r.before),
      after: returnAuditShape(r.after),
    });

  app.get(
    '/devolucoes/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Desistências, devoluções e trocas: as em aberto (da mais antiga à mais nova), depois as últimas encerradas',
        response: { 200: PainelReturnListSchema, ...PAINEL_ERRORS },
      },
    },
    async () => admin.queue(),
  );

  app.post(
    '/devolucoes/:id/recebida/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Itens recebidos: cada linha volta ao estoque ou não',
        params: ReturnIdSchema,
        body: ReturnReceiveSchema,
        response: { 200: PainelReturnSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      await audited(req, (tx) => admin.receive(tx, req.params.id, req.body), audit('recebida'));
      return admin.one(req.params.id);
    },
  );

  app.post(
    '/devolucoes/:id/codigo/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Enviar ao cliente o código de postagem emitido no portal da transportadora',
        params: ReturnIdSchema,
        body: ReturnCodeSchema,
        response: { 200: PainelReturnSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      await audited(req, (tx) => admin.sendCode(tx, req.params.id, req.body), audit('codigo'));
      return admin.one(req.params.id);
    },
  );

  app.post(
    '/devolucoes/:id/recusar/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'Recusar a solicitação, com o motivo que o cliente vê',
        params: ReturnIdSchema,
        body: ReturnRefuseSchema,
        response: { 200: PainelReturnSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const done = await audited(req, (tx) => admin.refuse(tx, req.params.id, req.body), audit('recusada'));
      if (done.refund) await app.payments.sendRefund(done.refund);
      return admin.one(req.params.id);
    },
  );

  app.post(
    '/devolucoes/:id/reembolso/',
    {
      config: { painel: { permission: 'devolver_pagamento' } },
      schema: {
        tags,
        summary: 'Reembolsar qualquer valor até o que resta do pagamento (só quem pode devolver pagamentos)',
        params: ReturnIdSchema,
        body: ReturnRefundSchema,
        response: { 200: PainelReturnSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const done = await audited(
        req,
        (tx) => admin.refund(tx, req.params.id, req.body),
        (r) => ({
          ...audit('reembolso')(r),
          after: { ...returnAuditShape(r.after), valor: req.body.valor },
        }),
      );
      // The money goes back only once the refund row committed; reconciliation retries a failure.
      if (done.refund) await app.payments.sendRefund(done.refund);
      for (const part of done.more) await app.payments.sendRefund(part);
      return admin.one(req.params.id);
    },
  );

  app.post(
    '/devolucoes/:id/postada/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary: 'O cliente postou os itens: marcar a solicitação como postada',
        params: ReturnIdSchema,
        body: ReturnPostedSchema,
        response: { 200: PainelReturnSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      await audited(req, (tx) => admin.markPosted(tx, req.params.id, req.body), audit('postada'));
      return admin.one(req.params.id);
    },
  );

  app.post(
    '/devolucoes/:id/troca-enviada/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags,
        summary:
          'Enviar a troca com o código de rastreio (a diferença a favor do cliente é reembolsada na hora)',
        params: ReturnIdSchema,
        body: ExchangeShipSchema,
        response: { 200: PainelReturnSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const done = await audited(
        req,
        (tx) => admin.shipExchange(tx, req.params.id, req.body),
        audit('troca_enviada'),
      );
      if (done.refund) await app.payments.sendRefund(done.refund);
      return admin.one(req.params.id);
    },
  );

  // The order page's partial refunds (docs/decisions/0040).
  app.get(
    '/orders/:id/reembolsos/',
    {
      config: { painel: { permission: 'pedidos' } },
      schema: {
        tags: ['painel: pedidos'],
        summary:
          'Pago, reembolsado e restante do pedido, com cada reembolso (quem, quando, status, id no provedor)',
        params: ReturnIdSchema,
        response: { 200: OrderRefundsSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => app.orders.refunds.summary(req.params.id),
  );

  app.post(
    '/orders/:id/reembolsos/',
    {
      config: { painel: { permission: 'devolver_pagamento' } },
      schema: {
        tags: ['painel: pedidos'],
        summary:
          'Reembolsar parte do pagamento: qualquer valor até o que resta (só quem pode devolver pagamentos)',
        params: ReturnIdSchema,
        body: OrderRefundPartSchema,
        response: { 200: OrderRefundsSchema, ...PAINEL_ERRORS },
      },
    },
    async (req) => {
      const refunds = app.orders.refunds;
      await refunds.checkFresh(req.params.id, req.body.reembolsos_vistos);
      const staff = req.staff!;
      const done = await audited(
        req,
        async (tx) => {
          const done = await refunds.refund(tx, req.params.id, req.body, staff.name || staff.email);
          // Nothing comes back: the price was reduced after the sale, so the NF-e's IBS/CBS get a nota de
          // crédito (docs/decisions/0059, later), enqueued with the refund.
          if (done.refund)
            await app.jobs.send(
              'fiscal.order-reduced',
              {
                orderId: req.params.id,
                refundId: done.refundId,
                amountCents: done.refund.amountCents,
                carrierReturn: req.body.retorno_transportadora,
              },
              { tx },
            );
          return done;
        },
        (r) => ({
          action: 'reembolso_parcial',
          entity: 'pedido',
          entityId: req.params.id,
          after: { valor: req.body.valor, motivo: req.body.motivo, reembolso: r.refundId },
        }),
      );
      // The money goes back only once the refund row committed; reconciliation retries a failure.
      if (done.refund) await app.payments.sendRefund(done.refund);
      return refunds.summary(req.params.id);
    },
  );
};
