import {
  CartRemindersSchema,
  CartRemindersWhatsAppSchema,
  CartSaveSchema,
  ServerCartSchema,
} from '@passada/core/contracts/cart';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.ts';
import type { CartRecovery } from './cart-recovery.ts';

/**
 * The signed-in buyer's cart kept on the server (docs/decisions/0072): read rebuilt with today's
 * prices and stock, saved whole on each change, joined with the browser's on signing in, and the
 * account's choice about reminders.
 */
export const cartRoutes: FastifyPluginAsyncZod<{ recovery: CartRecovery }> = async (app, { recovery }) => {
  const tags = ['carrinho'];
  const saves = {
    auth: 'user' as const,
    limit: {
      name: 'carrinho',
      max: app.env.SERVER_CART_RATE_LIMIT_PER_ACCOUNT,
      windowSeconds: 600,
      per: 'account' as const,
    },
  };
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 429: ApiErrorSchema };

  app.get(
    '/api/carrinho/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'O carrinho da conta, com os preços e o estoque de agora (itens que saíram da loja ficam de fora)',
        response: { 200: ServerCartSchema, 401: ApiErrorSchema },
      },
    },
    async (req) => recovery.get((await requireUser(req)).id),
  );

  app.put(
    '/api/carrinho/',
    {
      config: saves,
      schema: {
        tags,
        summary: 'Guarda o carrinho inteiro como está no navegador (a cada mudança)',
        body: CartSaveSchema,
        response: { 200: ServerCartSchema, ...errors },
      },
    },
    async (req) => recovery.save((await requireUser(req)).id, req.body.itens),
  );

  app.post(
    '/api/carrinho/mesclar/',
    {
      config: saves,
      schema: {
        tags,
        summary:
          'Ao entrar na conta: junta o carrinho do navegador ao guardado (o mesmo item fica com a maior quantidade)',
        body: CartSaveSchema,
        response: { 200: ServerCartSchema, ...errors },
      },
    },
    async (req) => recovery.merge((await requireUser(req)).id, req.body.itens),
  );

  app.put(
    '/api/carrinho/lembretes/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Receber ou não o lembrete de um carrinho ou de uma inscrição deixados sem pagar',
        body: CartRemindersSchema,
        response: { 200: CartRemindersSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
      },
    },
    async (req) => {
      await recovery.setReminders((await requireUser(req)).id, req.body.ativos);
      return { ativos: req.body.ativos };
    },
  );

  app.put(
    '/api/carrinho/lembretes/whatsapp/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary:
          'Receber também pelo WhatsApp, neste número, o lembrete de um carrinho ou de uma inscrição deixados sem pagar (ou null para parar)',
        body: CartRemindersWhatsAppSchema,
        response: {
          200: z.object({ whatsapp: z.string().nullable() }),
          400: ApiErrorSchema,
          401: ApiErrorSchema,
        },
      },
    },
    async (req) => {
      const user = await requireUser(req);
      await recovery.setWhatsApp(user.id, req.body.telefone);
      return { whatsapp: (await recovery.get(user.id)).whatsapp };
    },
  );
};
