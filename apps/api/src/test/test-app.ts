import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../app.ts';
import { type Env, loadEnv } from '../config/env.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { adminQuery } from './global-setup.ts';

/**
 * For test files that need a real PostgreSQL server (`*.pg.test.ts`): fails the file loudly when
 * TEST_DATABASE_URL is missing instead of skipping it. `npm test` provides one
 * (scripts/ensure-postgres.sh).
 */
export function requirePostgres(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'This test file needs PostgreSQL: set TEST_DATABASE_URL (npm run test:pg sets it up) — not skipping.',
    );
  return url;
}

/**
 * A new, empty PostgreSQL database on the TEST_DATABASE_URL server, for tests that start real server
 * processes on it; `drop` removes it (even with processes still connected).
 */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createPostgresDatabase('');
}

/** A new database on the TEST_DATABASE_URL server, copied from `template` ('' for an empty one). */
async function createPostgresDatabase(template: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = requirePostgres();
  const name = `passada_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(adminUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * A fresh, migrated database for one test file: PostgreSQL when TEST_DATABASE_URL is set (a database
 * created for the file and dropped after), embedded in-memory PGlite otherwise. Both start as a copy of
 * the run's template (global-setup.ts: migrations and the job queue's tables, built once per run), or
 * are migrated here when the file runs without that setup.
 */
export async function createTestDatabase(): Promise<Database> {
  if (!process.env.TEST_DATABASE_URL) {
    const template = inject('pgliteTemplate');
    if (template) {
      return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([readFileSync(template)]) });
    }
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return database;
  }
  const template = inject('postgresTemplate');
  const created = await createPostgresDatabase(template ?? '');
  const database = await openDatabase({ url: created.url });
  if (!template) await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  env: Env;
  /** Folder standing in for DATA_DIR (outbox e-mails land under it). */
  dataDir: string;
  close(): Promise<void>;
}

type TestAppOptions = { env?: Record<string, string>; database?: Database } & Omit<
  Partial<BuildAppOptions>,
  'env' | 'database'
>;

/** Boots the real app over a fresh database; talk to it with `app.inject()`. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'passada-test-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    // A job sent wakes its workers at once; the poll only picks up retries (a few seconds late at most).
    // Polling 70 queues every half second took about a fifth of a core per test app (decision 0088).
    JOBS_POLL_SECONDS: '5',
    // The health check's database probe gives up after 2 s in production; on a loaded test machine a
    // probe has taken longer, and a test that is not about the probe would read 503.
    HEALTH_DB_CHECK_TIMEOUT_MS: '20000',
    ...options.env,
  });
  const database = options.database ?? (await createTestDatabase());
  const app = await buildApp({ ...options, env, database });
  await app.ready();
  return {
    app,
    database,
    env,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A file's shared app whose clock the tests move; it goes back to `start` before every test. */
export interface ClockedTestApp extends TestApp {
  clock: Date;
}

/**
 * One app for the enclosing describe block (its beforeAll hooks run after the app is up), on a clock
 * the tests set by assigning `clock`.
 */
export function useClockedTestApp(start: Date, options: Omit<TestAppOptions, 'now'> = {}): ClockedTestApp {
  let current: TestApp | undefined;
  const booted = (): TestApp => {
    if (!current) throw new Error('the test app is used before beforeAll booted it');
    return current;
  };
  const clocked: ClockedTestApp = {
    clock: start,
    get app() {
      return booted().app;
    },
    get database() {
      return booted().database;
    },
    get env() {
      return booted().env;
    },
    get dataDir() {
      return booted().dataDir;
    },
    close: () => booted().close(),
  };
  beforeAll(async () => {
    current = await createTestApp({ ...options, now: () => clocked.clock });
  });
  afterAll(() => current?.close());
  beforeEach(() => {
    clocked.clock = start;
  });
  return clocked;
}
