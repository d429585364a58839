import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { ensurePrivateDirSync, tightenTreeSync } from '../ops/private-files.ts';
import { NamedStatementsClient } from './named-statements.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The one database type the code sees, whether PGlite or PostgreSQL is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; services pass it down to repositories. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How many statements can run at once: the pool's size on PostgreSQL, one on PGlite. */
  connections: number;
  migrate(): Promise<void>;
  /**
   * Runs `fn` holding a PostgreSQL session advisory lock, so processes starting together on one
   * database migrate and seed one at a time. PGlite has a single process: `fn` just runs.
   */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel`, from any process, after the notifying
   * transaction commits, with its payload (null when notifications may have been lost: the listener
   * must then assume anything changed); answers the function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>>;
}

/** Any constant works as long as every process uses the same one ("pass" in ASCII). */
const STARTUP_LOCK_KEY = 0x70617373;

/**
 * PostgreSQL through a connection pool of at most `poolMax` connections (default 10), each statement
 * prepared once per connection unless `preparedStatements` is false, when `url` is
 * given, otherwise embedded PGlite stored in `dataDir` (or in memory when `dataDir` is `memory://`).
 */
export async function openDatabase(opts: {
  url?: string | undefined;
  dataDir?: string;
  poolMax?: number;
  /** Prepare each statement once per connection (default); off behind a transaction-mode pooler. */
  preparedStatements?: boolean;
  /**
   * PGlite in memory only: start from this data folder (a `dumpDataDir` tarball) instead of an empty
   * one. The tests' migrated template (src/test/global-setup.ts).
   */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.url) {
    const connections = opts.poolMax ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: connections,
      ...(opts.preparedStatements === false ? {} : { Client: NamedStatementsClient }),
    });
    // An idle connection closed by the server (restart, failover) must not crash the process;
    // the pool drops it and the next query opens a new one.
    pool.on('error', (err) => console.error(`PostgreSQL: conexão ociosa encerrada (${err.message})`));
    // drizzle-orm depends on an older @types/pg; the pool is the same at run time.
    const db = drizzlePg({ client: pool as never, schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      connections,
      migrate: () => migratePg(db as never, { migrationsFolder }),
      async withStartupLock(fn) {
        // A session lock lives on one connection: hold that connection until `fn` is done.
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
          try {
            return await fn();
          } finally {
            await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
          }
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
      listen: (channel, onNotify) => listenPg(opts.url!, channel, onNotify),
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  const inMemory = dir.startsWith('memory://');
  if (!inMemory && !existsSync(path.join(dir, 'PG_VERSION'))) {
    ensurePrivateDirSync(dir);
    await initializePglite(dir);
  }
  // The data folder holds every customer's rows: 0700/0600 whatever the umask, an older folder too.
  if (!inMemory) tightenTreeSync(dir);
  if (opts.loadDataDir && !inMemory) throw new Error('PGlite: loadDataDir só vale para um banco em memória');
  const client = await PGlite.create(inMemory ? { loadDataDir: opts.loadDataDir } : { dataDir: dir });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    connections: 1,
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    withStartupLock: (fn) => fn(),
    // Files PGlite creates while it runs (pg_internal.init, new relations) are 0644 inside the 0700
    // folder; on closing they are tightened too.
    close: async () => {
      await client.close();
      if (!inMemory && existsSync(dir)) tightenTreeSync(dir);
    },
    listen: async (channel, onNotify) => {
      const stop = await client.listen(channel, (payload) => onNotify(payload));
      return async () => {
        if (!client.closed) await stop();
      };
    },
  };
}

/**
 * Creates a new PGlite data folder in a worker thread. In the server's own thread, the instance that
 * ran initdb (a second WASM instance) stays holding about 400 MB more than serving needs, which V8
 * does not give back; the worker's memory goes with the worker. Then the server opens the folder as
 * on any restart (a quarter of a second).
 */
async function initializePglite(dir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const worker = new Worker(
    `import(${JSON.stringify(pglite)}).then(async ({ PGlite }) => {
      await (await PGlite.create(${JSON.stringify(dir)})).close();
    });`,
    { eval: true },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`PGlite: a criação do banco em ${dir} falhou (${code})`)),
    );
  });
}

/**
 * LISTEN needs a connection of its own, outside the pool. While it is down notifications are lost,
 * so the listener is told "changed" on every retry (once a second) until it is back.
 */
async function listenPg(
  url: string,
  channel: string,
  onNotify: (payload: string | null) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  const retry = () =>
    setTimeout(async () => {
      if (stopped) return;
      onNotify(null);
      try {
        await connect();
        onNotify(null);
      } catch {
        retry();
      }
    }, 1000).unref();
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? null);
    });
    next.on('error', () => {
      if (stopped) return;
      onNotify(null);
      next.end().catch(() => {});
      retry();
    });
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end();
  };
}
