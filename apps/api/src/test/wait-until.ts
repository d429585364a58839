import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { vi } from 'vitest';
import type { Db } from '../db/client.ts';

/**
 * How long a change may take to reach another process, or a job to run: on a busy machine (two test
 * files at once, other runs beside them) a NOTIFY has been seen to arrive well after a second and a job
 * queue's poll to take over 15 s. Only a failing test waits this long.
 */
const UNTIL_SEEN_TIMEOUT_MS = 30_000;

/**
 * "Until this process saw the change": reads `read` again until its answer equals `expected` (deep
 * equality) or passes it, when `expected` is a check. A write through one app reaches the kept answers of
 * another app on the same PostgreSQL database through NOTIFY a moment after the commit (or its timer);
 * the test waits on that condition instead of a fixed pause. Answers the last value read, so the
 * caller's `expect` shows what the process still answered when the change never arrived.
 */
export async function untilSeen<T>(
  read: () => Promise<T>,
  expected: T | ((value: T) => boolean),
  timeout = UNTIL_SEEN_TIMEOUT_MS,
): Promise<T> {
  const seen = (value: T) =>
    typeof expected === 'function'
      ? (expected as (v: T) => boolean)(value)
      : isDeepStrictEqual(value, expected);
  let last = await read();
  if (seen(last)) return last;
  await vi
    .waitFor(
      async () => {
        last = await read();
        if (!seen(last)) throw new Error('not seen yet');
      },
      { timeout, interval: 20 },
    )
    .catch(() => undefined);
  return last;
}

/**
 * Until no job of the named queues is waiting, retried or running: a job sent with the request (or by
 * the test) has then run, and what it did, or did not do, can be read. Instead of a fixed pause "longer
 * than a few polls of the queue".
 */
export async function untilJobsDone(db: Db, ...names: string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      const waiting = (await db.execute(
        sql`select count(*) as n from pgboss.job
             where name in (${sql.join(
               names.map((n) => sql`${n}`),
               sql`, `,
             )}) and state in ('created', 'retry', 'active')`,
      )) as { rows: Array<{ n: number | string }> };
      if (Number(waiting.rows[0]?.n) !== 0) throw new Error(`jobs still waiting in ${names.join(', ')}`);
    },
    { timeout: UNTIL_SEEN_TIMEOUT_MS, interval: 50 },
  );
}
