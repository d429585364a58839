import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type BuildAppOptions, buildApp } from '../app.ts';
import { type Env, loadEnv } from '../config/env.ts';
import { type Database, openDatabase } from '../db/client.ts';

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
  const adminUrl = requirePostgres();
  const name = `passada_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * A fresh, migrated database for one test file: PostgreSQL when TEST_DATABASE_URL is set (a database
 * created for the file and dropped after), embedded in-memory PGlite otherwise.
 */
export async function createTestDatabase(): Promise<Database> {
  if (!process.env.TEST_DATABASE_URL) {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return database;
  }
  const empty = await createEmptyPostgresDatabase();
  const database = await openDatabase({ url: empty.url });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await empty.drop();
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

/** Boots the real app over a fresh database; talk to it with `app.inject()`. */
export async function createTestApp(
  options: { env?: Record<string, string>; database?: Database } & Omit<
    Partial<BuildAppOptions>,
    'env' | 'database'
  > = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'passada-test-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Jobs (e-mails, refunds) run within a second, so tests wait little.
    JOBS_POLL_SECONDS: '0.5',
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
