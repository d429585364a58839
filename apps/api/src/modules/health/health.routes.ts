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
        await app.deps.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: app.deps.database.kind };
      } catch {
        return reply.status(503).send({ status: 'erro' as const, detail: 'Banco de dados indisponível.' });
      }
    },
  );
};
