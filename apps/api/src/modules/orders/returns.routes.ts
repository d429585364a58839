import { ApiErrorSchema, IdParamSchema } from '@passada/core/contracts/common';
import {
  ExchangeRequestSchema,
  OrderAfterSaleSchema,
  OrderChangeQuoteSchema,
  OrderChangeRequestSchema,
  OrderReturnSchema,
  ReturnRequestSchema,
  WithdrawalRequestSchema,
} from '@passada/core/contracts/returns';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import type { OrderExchanges } from './order-exchanges.ts';
import type { OrderReturns } from './order-returns.ts';

/** The buyer's after-sale routes (docs/decisions/0036): what the order allows, and the withdrawal. */
/** What a buyer's request (withdrawal, return, exchange) answers: the request made, or why not. */
const REQUEST_ANSWERS = {
  201: OrderReturnSchema,
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
} as const;

export const returnsRoutes: FastifyPluginAsyncZod<{
  returns: OrderReturns;
  exchanges: OrderExchanges;
}> = async (app, { returns, exchanges }) => {
  app.get(
    '/api/orders/:id/pos-venda/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary: 'Desistência, devolução e troca: prazos, o que resta do pedido e as solicitações',
        params: IdParamSchema,
        response: { 200: OrderAfterSaleSchema, 401: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request) => returns.afterSale(await requireUser(request), request.params.id),
  );

  app.post(
    '/api/orders/:id/desistencia/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary: 'Desistir da compra antes do envio (o pedido inteiro ou itens): o valor volta na hora',
        params: IdParamSchema,
        body: WithdrawalRequestSchema,
        response: REQUEST_ANSWERS,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await returns.withdraw(user, request.params.id, request.body));
    },
  );

  app.post(
    '/api/orders/:id/alteracoes/cotacao/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary: 'O que uma lista de alterações antes do envio devolveria, sem mudar nada',
        params: IdParamSchema,
        body: OrderChangeRequestSchema,
        response: {
          200: OrderChangeQuoteSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request) => returns.quoteWithdrawal(await requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/orders/:id/alteracoes/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary:
          'Uma lista de alterações antes do envio (itens e inscrições), com a versão do pedido lida: o valor volta na hora',
        params: IdParamSchema,
        body: OrderChangeRequestSchema,
        response: REQUEST_ANSWERS,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await returns.withdraw(user, request.params.id, request.body));
    },
  );

  app.post(
    '/api/orders/:id/devolucoes/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary:
          'Devolver itens depois da entrega (7 dias por arrependimento, 90 por defeito): código de postagem',
        params: IdParamSchema,
        body: ReturnRequestSchema,
        response: REQUEST_ANSWERS,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await returns.requestReturn(user, request.params.id, request.body));
    },
  );

  app.post(
    '/api/orders/:id/trocas/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary:
          'Trocar itens por outra cor ou outro tamanho do mesmo produto (no prazo da devolução): a nova unidade fica reservada',
        params: IdParamSchema,
        body: ExchangeRequestSchema,
        response: REQUEST_ANSWERS,
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return reply.status(201).send(await exchanges.requestExchange(user, request.params.id, request.body));
    },
  );
};
