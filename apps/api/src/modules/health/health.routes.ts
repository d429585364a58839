import { PublicConfigSchema } from '@passada/core/contracts/config';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const PixWebhookStateSchema = z.enum(['ok', 'erro', 'pendente']);

type WebhookState = 'ok' | 'erro' | 'pendente' | 'desativado';

const DATABASE_DOWN = 'Banco de dados indisponível.';
const WEBHOOK_DOWN =
  'O webhook Pix não está registrado na Efí: pagamentos Pix só se confirmam pela conciliação.';

/**
 * Whether the database answers `select 1` within `timeoutMs`, asked at most once per `ttlMs` of the
 * app's clock: requests in between reuse the last answer, and requests arriving while a check runs
 * wait for that one. A database that stops answering is reported within `ttlMs` plus `timeoutMs`.
 */
export function createDatabaseCheck(
  app: FastifyInstance,
  { ttlMs, timeoutMs }: { ttlMs: number; timeoutMs: number },
) {
  let last: { at: number; ok: boolean } | null = null;
  let running: Promise<boolean> | null = null;

  async function check(): Promise<boolean> {
    const at = app.now().getTime();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    // A statement that never answers is left to finish on its own; the check has its answer.
    const ok = await Promise.race([app.db.execute(sql`select 1`), timedOut]).then(
      () => true,
      () => false,
    );
    clearTimeout(timer);
    last = { at, ok };
    return ok;
  }

  return function databaseAnswers(): Promise<boolean> | boolean {
    const now = app.now().getTime();
    // A clock set back (tests do it) makes the last answer stale too.
    if (last && now >= last.at && now - last.at < ttlMs) return last.ok;
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };
}

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const databaseAnswers = createDatabaseCheck(app, {
    ttlMs: app.env.HEALTH_DB_CHECK_TTL_MS,
    timeoutMs: app.env.HEALTH_DB_CHECK_TIMEOUT_MS,
  });
  // Each possible answer is serialized once, the first time it is given.
  const answers = new Map<string, { status: 200 | 503; body: Buffer }>();
  const answerFor = (databaseOk: boolean, webhook: WebhookState) => {
    const key = `${databaseOk}:${webhook}`;
    let answer = answers.get(key);
    if (!answer) {
      // Only where Efí is told to call us (PAYMENTS=efi with a webhook secret) is there a state to show.
      const shown = webhook === 'desativado' ? {} : { pix_webhook: webhook };
      const [status, value] = !databaseOk
        ? ([503, { status: 'erro', detail: DATABASE_DOWN }] as const)
        : webhook === 'erro'
          ? ([503, { status: 'erro', detail: WEBHOOK_DOWN, ...shown }] as const)
          : ([200, { status: 'ok', database: app.database.kind, ...shown }] as const);
      answer = { status, body: Buffer.from(JSON.stringify(value)) };
      answers.set(key, answer);
    }
    return answer;
  };

  app.get(
    '/api/health',
    {
      // A 37-byte answer to a bodiless request: nothing to compress or decompress, so no hooks for it.
      compress: false,
      decompress: false,
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
      const databaseOk = await databaseAnswers();
      const webhook = app.hasDecorator('payments') ? app.payments.webhookState() : 'desativado';
      const { status, body } = answerFor(databaseOk, webhook);
      // Already serialized (and shaped like the schemas above): sent as bytes, not serialized again.
      return (reply as FastifyReply).code(status).type('application/json; charset=utf-8').send(body);
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
