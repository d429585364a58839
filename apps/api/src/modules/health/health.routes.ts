import { PublicConfigSchema } from '@passada/core/contracts/config';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['sistema'],
        summary: 'Estado do servidor e do banco de dados',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
          503: z.object({ status: z.literal('erro'), detail: z.string() }),
        },
      },
    },
    async (_req, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: app.database.kind };
      } catch {
        return reply.status(503).send({ status: 'erro' as const, detail: 'Banco de dados indisponível.' });
      }
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
