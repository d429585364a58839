import type { Db, Tx } from './client.ts';

/** SQLSTATEs after which the same transaction, run again from the start, may well succeed. */
const RETRYABLE = new Set([
  // deadlock_detected: PostgreSQL ended this transaction to break a cycle of waits with another one.
  '40P01',
  // serialization_failure.
  '40001',
]);

function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.length === 5) return code;
  }
  return undefined;
}

/**
 * Runs `fn` in a transaction and, when PostgreSQL ends it to break a deadlock (or a serialization
 * failure), runs it again from the start, up to `attempts` times. Everything the failed attempt wrote
 * was rolled back, so only `fn`'s own effects outside the database must be safe to repeat (none, for
 * the callers: they only read and write in `tx`). Locks taken in different orders by paths that cannot
 * know each other's order (a buyer's earlier Pix given back before a cart's runners are counted, while
 * another cart counts the same runners before taking the same shirts) end this way instead of in a 500.
 */
export async function transactionRetrying<T>(db: Db, fn: (tx: Tx) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (err) {
      const state = sqlState(err);
      if (attempt >= attempts || !state || !RETRYABLE.has(state)) throw err;
    }
  }
}
