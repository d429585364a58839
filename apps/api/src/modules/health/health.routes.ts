import { PublicConfigSchema } from '@passada/core/contracts/config';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationsFolder } from '../../db/client.ts';

const PixWebhookStateSchema = z.enum(['ok', 'erro', 'pendente']);

type WebhookState = 'ok' | 'erro' | 'pendente' | 'desativado';
/** What the database check found: answering and migrated, answering with migrations missing, or silent. */
export type DatabaseState = 'ok' | 'migrando' | 'fora';

const DATABASE_DOWN = 'Banco de dados indisponível.';
const DATABASE_MIGRATING = 'O banco de dados ainda não tem todas as migrações desta versão.';
const WEBHOOK_DOWN =
  'O webhook Pix não está registrado na Efí: pagamentos Pix só se confirmam pela conciliação.';

/**
 * The database's state, asked at most once per `ttlMs` of the app's clock: requests in between reuse
 * the last answer, and requests arriving while a check runs wait for that one. A database that stops
 * answering is reported within `ttlMs` plus `timeoutMs`. The one query reads the newest migration the
 * database has applied: older than the newest this version ships means another copy is migrating (or
 * the start's migration failed), and this copy must not take requests yet.
 */
export function createDatabaseCheck(
  app: FastifyInstance,
  { ttlMs, timeoutMs }: { ttlMs: number; timeoutMs: number },
) {
  let last: { at: number; state: DatabaseState } | null = null;
  let running: Promise<DatabaseState> | null = null;
  const expected = newestShippedMigration();

  async function check(): Promise<DatabaseState> {
    const at = app.now().getTime();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    // A statement that never answers is left to finish on its own; the check has its answer.
    const state = await Promise.race([newestAppliedMigration(app), timedOut]).then(
      (applied): DatabaseState => (applied >= expected ? 'ok' : 'migrando'),
      (err: unknown): DatabaseState => (isMissingTable(err) ? 'migrando' : 'fora'),
    );
    clearTimeout(timer);
    last = { at, state };
    return state;
  }

  return function databaseState(): Promise<DatabaseState> | DatabaseState {
    const now = app.now().getTime();
    // A clock set back (tests do it) makes the last answer stale too.
    if (last && now >= last.at && now - last.at < ttlMs) return last.state;
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };
}

/** The `created_at` drizzle's migrator stores for the newest migration in this build's folder. */
function newestShippedMigration(): number {
  return Math.max(0, ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
}

async function newestAppliedMigration(app: FastifyInstance): Promise<number> {
  const result = (await app.db.execute(
    sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
  )) as { rows: Array<{ newest: string | number | null }> };
  return Number(result.rows[0]?.newest ?? 0);
}

/** PostgreSQL's "undefined_table": a database no copy has migrated yet. */
function isMissingTable(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '42P01') return true;
  }
  return false;
}

const healthResponses = {
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
};

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const databaseState = createDatabaseCheck(app, {
    ttlMs: app.env.HEALTH_DB_CHECK_TTL_MS,
    timeoutMs: app.env.HEALTH_DB_CHECK_TIMEOUT_MS,
  });
  // Each possible answer is serialized once, the first time it is given.
  const answers = new Map<string, { status: 200 | 503; body: Buffer }>();
  const answerFor = (database: DatabaseState, webhook: WebhookState) => {
    const key = `${database}:${webhook}`;
    let answer = answers.get(key);
    if (!answer) {
      // Only where Efí is told to call us (PAYMENTS=efi with a webhook secret) is there a state to show.
      const shown = webhook === 'desativado' ? {} : { pix_webhook: webhook };
      const [status, value] =
        database === 'fora'
          ? ([503, { status: 'erro', detail: DATABASE_DOWN }] as const)
          : database === 'migrando'
            ? ([503, { status: 'erro', detail: DATABASE_MIGRATING }] as const)
            : webhook === 'erro'
              ? ([503, { status: 'erro', detail: WEBHOOK_DOWN, ...shown }] as const)
              : ([200, { status: 'ok', database: app.database.kind, ...shown }] as const);
      answer = { status, body: Buffer.from(JSON.stringify(value)) };
      answers.set(key, answer);
    }
    return answer;
  };

  const ready = async (_req: unknown, reply: FastifyReply) => {
    const database = await databaseState();
    const webhook = app.hasDecorator('payments') ? app.payments.webhookState() : 'desativado';
    const { status, body } = answerFor(database, webhook);
    // Already serialized (and shaped like the schemas above): sent as bytes, not serialized again.
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  };
  // A bodiless request with a tiny answer: nothing to compress or decompress, so no hooks for them.
  const bare = { compress: false, decompress: false } as const;

  // Readiness: whether a balancer may send this copy requests. `/api/health` is the older name.
  for (const url of ['/api/health', '/api/health/ready']) {
    app.get(
      url,
      {
        ...bare,
        schema: {
          tags: ['sistema'],
          summary: 'Prontidão: servidor, banco de dados migrado e, com a Efí, o webhook Pix',
          response: healthResponses,
        },
      },
      (req, reply) => ready(req, reply as FastifyReply),
    );
  }

  // Liveness: the process answers. Never asks the database, so an orchestrator does not restart a
  // healthy copy because the database went away (readiness takes it out of the balancer instead).
  const alive = Buffer.from(JSON.stringify({ status: 'ok' }));
  app.get(
    '/api/health/live',
    {
      ...bare,
      schema: {
        tags: ['sistema'],
        summary: 'Vivacidade: o processo responde (não consulta o banco de dados)',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_req, reply) => {
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(alive);
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
        encarregado: { nome: env.PRIVACY_OFFICER_NAME, email: env.PRIVACY_OFFICER_EMAIL },
      };
    },
  );
};
