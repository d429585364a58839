import { ApiErrorSchema } from '@passada/core/contracts/common';
import { OrderCreateRequestSchema, OrderListSchema, OrderSchema } from '@passada/core/contracts/orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../plugins/auth.ts';
import type { OrdersService } from './orders.service.ts';

export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  app.post(
    '/api/orders/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary: 'O pedido criado pela confirmação do pagamento (txid da cobrança paga)',
        body: OrderCreateRequestSchema,
        response: {
          201: OrderSchema,
          401: ApiErrorSchema,
          402: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const order = await orders.orderForPaidCharge(user, request.body.txid);
      return reply.status(201).send(order);
    },
  );

  app.get(
    '/api/orders/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pedidos'],
        summary: 'Pedidos do usuário, do mais recente ao mais antigo',
        response: { 200: OrderListSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return orders.listOrders(user.id);
    },
  );
};
