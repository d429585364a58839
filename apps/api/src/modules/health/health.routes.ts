import { PublicConfigSchema } from '@passada/core/contracts/config';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const PixWebhookStateSchema = z.enum(['ok', 'erro', 'pendente']);

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['sistema'],
        summary: 'Estado do servidor, do banco de dados e do webhook Pix (prontidão)',
        response: {
          200: z.object({
            status: z.literal('ok'),
            database: z.enum(['pglite', 'postgres']),
            pix_webhook: PixWebhookStateSchema.optional(),
          }),
          503: z.object({
            status: z.literal('erro'),
            detail: z.string(),
            pix_webhook: PixWebhookStateSchema.optional(),
          }),
        },
      },
    },
    async (_req, reply) => {
      try {
        await app.db.execute(sql`select 1`);
      } catch {
        return reply.status(503).send({ status: 'erro' as const, detail: 'Banco de dados indisponível.' });
      }
      // Only where Efí is told to call us (PAYMENTS=efi with a webhook secret) is there a state to show.
      const webhook = app.hasDecorator('payments') ? app.payments.webhookState() : 'desativado';
      if (webhook === 'erro')
        return reply.status(503).send({
          status: 'erro' as const,
          detail:
            'O webhook Pix não está registrado na Efí: pagamentos Pix só se confirmam pela conciliação.',
          pix_webhook: webhook,
        });
      return {
        status: 'ok' as const,
        database: app.database.kind,
        ...(webhook === 'desativado' ? {} : { pix_webhook: webhook }),
      };
    },
  );

  app.get(
    '/api/config/',
    {
      schema: {
        tags: ['sistema'],
        summary: 'Configurações públicas usadas pelo navegador',
        response: { 200: PublicConfigSchema },
      },
    },
    async (_req, reply) => {
      const { env } = app;
      reply.header('cache-control', 'public, max-age=300');
      return {
        nome_loja: env.STORE_NAME,
        pagamentos: {
          provedor: env.PAYMENTS,
          conta: env.PAYMENTS === 'efi' ? (env.EFI_ACCOUNT_ID ?? null) : null,
          ambiente: env.EFI_ENVIRONMENT,
        },
      };
    },
  );
};
