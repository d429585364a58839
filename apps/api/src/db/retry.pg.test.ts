import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, requirePostgres } from '../test/test-app.ts';
import type { Database } from './client.ts';
import { transactionRetrying } from './retry.ts';

// Deadlocks need two real connections: PostgreSQL only (npm test provides one).
requirePostgres();

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Two transactions taking locks 1 and 2 in opposite orders, each waiting for the other to hold one. */
async function crossedLocks(
  run: (name: string, fn: (lock: (k: number) => Promise<void>) => Promise<void>) => Promise<void>,
) {
  let held = 0;
  const bothHold = () =>
    new Promise<void>((resolve) => {
      held++;
      const check = () => (held >= 2 ? resolve() : setTimeout(check, 5));
      check();
    });
  const attempts: string[] = [];
  const results = await Promise.allSettled(
    [
      [1, 2],
      [2, 1],
    ].map(([a, b], i) =>
      run(`t${i}`, async (lock) => {
        attempts.push(`t${i}`);
        await lock(a!);
        if (attempts.length <= 2) await bothHold();
        await lock(b!);
      }),
    ),
  );
  return { results, attempts };
}

it('runs a transaction PostgreSQL ended to break a deadlock again, and it commits', async () => {
  const { results, attempts } = await crossedLocks((_name, fn) =>
    transactionRetrying(database.db, (tx) =>
      fn(async (k) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${k})`);
      }),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  // Both started once; the one PostgreSQL chose as the victim started a second time.
  expect(attempts).toHaveLength(3);
});

it('without the retry the same crossing ends one transaction with the deadlock (the case it exists for)', async () => {
  const { results } = await crossedLocks((_name, fn) =>
    database.db.transaction((tx) =>
      fn(async (k) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${k})`);
      }),
    ),
  );
  const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  expect(failed).toHaveLength(1);
  expect(JSON.stringify(failed[0]!.reason?.cause?.code ?? failed[0]!.reason?.code)).toContain('40P01');
});

it('does not run again what failed for another reason', async () => {
  let runs = 0;
  await expect(
    transactionRetrying(database.db, async (tx) => {
      runs++;
      await tx.execute(sql`select 1/0`);
    }),
  ).rejects.toThrow();
  expect(runs).toBe(1);
});
