import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database, Tx } from '../db/client.ts';

/** The one thing pg-boss needs from a connection (its `db` option). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * An executor on the database's own connection, so pg-boss opens none of its own: the PostgreSQL
 * pool, or the PGlite instance (single connection, which serialises pg-boss's queries with the app's).
 * Drizzle exposes its driver client as `$client`; `Database` keeps only the query builder.
 */
export function databaseExecutor(database: Database): SqlExecutor {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (database.kind === 'postgres') {
    const pool = client as pg.Pool;
    return {
      executeSql: (text, values) => pool.query(text, values),
    };
  }
  const pglite = client as PGlite;
  return {
    async executeSql(text, values) {
      // pg-boss sends its schema and maintenance as several statements in one string, which only
      // the simple protocol (`exec`) accepts; with parameters it is always one statement.
      if (!values || values.length === 0) {
        const results = await pglite.exec(text);
        return results.at(-1) ?? { rows: [] };
      }
      return pglite.query(text, values);
    },
  };
}

/**
 * An executor inside a Drizzle transaction, so a job is inserted by the same commit as the change
 * that asks for it (rolled back with it). pg-boss writes `$1…$n`; each becomes a Drizzle parameter.
 */
export function transactionExecutor(tx: Tx): SqlExecutor {
  return {
    async executeSql(text, values = []) {
      // Both drivers answer with `rows`; the shared `Db` type does not say so.
      const result = (await tx.execute(withParams(text, values))) as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

function withParams(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks = parts.map((part, i) =>
    i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1] ?? null)}`,
  );
  return sql.join(chunks);
}

/**
 * Wraps an executor to know which statements are still running: pg-boss marks a job done without
 * awaiting it, and the database must not close under that last write.
 */
export function trackedExecutor(
  inner: SqlExecutor,
): SqlExecutor & { settled(): Promise<void>; busy(): boolean } {
  const running = new Set<Promise<unknown>>();
  return {
    executeSql(text, values) {
      const query = inner.executeSql(text, values);
      running.add(query);
      const forget = () => running.delete(query);
      query.then(forget, forget);
      return query;
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    busy: () => running.size > 0,
  };
}
