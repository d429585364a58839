import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { createTestDatabase } from '../test/test-app.ts';
import jobsPlugin from './index.ts';
import { defineJob, jobCatalog } from './job-catalog.ts';
import { createJobs, type Jobs } from './jobs.ts';

const catalog = {
  'test.echo': defineJob<{ n: number }>({ retryLimit: 0 }),
  'test.web-only': defineJob<{ n: number }>({ retryLimit: 0 }),
  'test.flaky': defineJob<{ orderId: number }>({ retryLimit: 1, retryDelaySeconds: 1 }),
  'test.bulk': defineJob<{ n: number }>({ retryLimit: 0 }),
  'test.nightly': defineJob<{ kind: string }>(),
  'test.stopping': defineJob<{ n: number }>({ retryLimit: 0 }),
  'test.batch-a': defineJob<{ n: number }>({ retryLimit: 3 }),
  'test.batch-b': defineJob<{ n: number }>({ retryLimit: 0 }),
  'test.deduped': defineJob<{ n: number }>({ policy: 'short' }),
  'test.woken': defineJob<{ n: number }>({ retryLimit: 0 }),
};
type TestCatalog = typeof catalog;

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}

let database: Database;
const running: Jobs<TestCatalog>[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const jobs of running.splice(0)) await jobs.stop({ graceful: false });
});
afterAll(() => database.close());

function queue(opts: { work?: boolean; logs?: LogEntry[]; on?: Database; pollSeconds?: number } = {}) {
  const logs = opts.logs ?? [];
  const jobs = createJobs({
    database: opts.on ?? database,
    catalog,
    work: opts.work ?? true,
    pollSeconds: opts.pollSeconds ?? 0.5,
    log: {
      info: (obj, msg) => logs.push({ level: 'info', obj, msg }),
      warn: (obj, msg) => logs.push({ level: 'warn', obj, msg }),
      error: (obj, msg) => logs.push({ level: 'error', obj, msg }),
    },
  });
  running.push(jobs);
  return jobs;
}

async function jobRows(name: string) {
  const result = (await database.db.execute(
    sql`select state, data, retry_count from pgboss.job where name = ${name} order by created_on`,
  )) as { rows: Array<{ state: string; data: unknown; retry_count: number }> };
  return result.rows;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job queue', () => {
  it('runs a job sent now, a burst, and a job sent to start later without waiting for the poll (decision 0088)', async () => {
    // A poll of a minute: anything that runs within the test was woken, not polled.
    const jobs = queue({ pollSeconds: 60 });
    const seen: number[] = [];
    jobs.work('test.woken', async (data) => {
      seen.push(data.n);
    });
    await jobs.start();
    // The first fetch of each worker happens at start; wait until they are back in their minute's sleep.
    await settle(500);
    await jobs.send('test.woken', { n: 1 });
    await vi.waitFor(() => expect(seen).toEqual([1]), { timeout: 5_000, interval: 50 });
    await database.db.transaction(async (tx) => {
      for (const n of [2, 3, 4]) await jobs.send('test.woken', { n }, { tx });
    });
    await vi.waitFor(() => expect([...seen].sort()).toEqual([1, 2, 3, 4]), { timeout: 5_000, interval: 50 });
    await jobs.send('test.woken', { n: 5 }, { startAfter: 1 });
    await settle(300);
    expect(seen).not.toContain(5);
    await vi.waitFor(() => expect(seen).toContain(5), { timeout: 5_000, interval: 50 });
  });

  it('runs a job enqueued in a committed transaction once, and never one whose transaction rolled back', async () => {
    const jobs = queue();
    const seen: number[] = [];
    jobs.work('test.echo', async (data) => {
      seen.push(data.n);
    });
    await jobs.start();

    await expect(
      database.db.transaction(async (tx) => {
        await jobs.send('test.echo', { n: 1 }, { tx });
        throw new Error('desfaz');
      }),
    ).rejects.toThrow('desfaz');
    await database.db.transaction(async (tx) => {
      await jobs.send('test.echo', { n: 2 }, { tx });
    });

    await vi.waitFor(() => expect(seen).toEqual([2]), { timeout: 45_000, interval: 100 });
    await settle(1200); // two more polls: a second run would show here
    expect(seen).toEqual([2]);
    expect(await jobRows('test.echo')).toEqual([{ state: 'completed', data: { n: 2 }, retry_count: 0 }]);
  });

  it('sendAll enqueues several jobs in one transaction, all with their queue’s retry policy or none', async () => {
    const jobs = queue({ work: false });
    await jobs.start();
    await expect(
      database.db.transaction(async (tx) => {
        await jobs.sendAll(
          [
            { name: 'test.batch-a', data: { n: 1 } },
            { name: 'test.batch-b', data: { n: 1 } },
          ],
          { tx },
        );
        throw new Error('desfaz');
      }),
    ).rejects.toThrow('desfaz');
    await database.db.transaction(async (tx) => {
      await jobs.sendAll(
        [
          { name: 'test.batch-a', data: { n: 2 } },
          { name: 'test.batch-b', data: { n: 2 } },
        ],
        { tx },
      );
    });
    const rows = (await database.db.execute(
      sql`select name, data, retry_limit from pgboss.job where name like 'test.batch-%' order by name`,
    )) as { rows: Array<{ name: string; data: unknown; retry_limit: number }> };
    expect(rows.rows).toEqual([
      { name: 'test.batch-a', data: { n: 2 }, retry_limit: 3 },
      { name: 'test.batch-b', data: { n: 2 }, retry_limit: 0 },
    ]);
    // A deduplicating queue could drop a job of a batch without saying so: refused before any insert.
    await expect(jobs.sendAll([{ name: 'test.deduped', data: { n: 1 } }])).rejects.toThrow(/deduplica/);
  });

  it('a sweep asked while one like it waits on a deduplicating queue is dropped, not an error', async () => {
    const jobs = queue({ work: false });
    await jobs.start();
    // The schedule's own run is waiting; a second ask (a test, a nudge) finds it and adds nothing.
    expect(await jobs.send('test.deduped', { n: 1 })).toEqual(expect.any(String));
    expect(await jobs.send('test.deduped', { n: 2 })).toBeNull();
    const rows = (await database.db.execute(
      sql`select data from pgboss.job where name = 'test.deduped' and state = 'created'`,
    )) as { rows: Array<{ data: unknown }> };
    expect(rows.rows).toEqual([{ data: { n: 1 } }]);
  });

  it('a job fetched while the queue stops runs to its end before stop returns, and is marked done', async () => {
    // Hold back the answer of the fetch that picks the job, so that it arrives after stop began.
    type Query = (...args: unknown[]) => Promise<{ rows: unknown[] }>;
    const client = (database.db as unknown as { $client: { query: Query } }).$client;
    const query = client.query.bind(client);
    let picked!: () => void;
    const jobPicked = new Promise<void>((resolve) => {
      picked = resolve;
    });
    let heldBack = false;
    const spy = vi.spyOn(client, 'query').mockImplementation(async (...args: unknown[]) => {
      const result = await query(...args);
      const fetch = typeof args[0] === 'string' && args[0].includes('SKIP LOCKED');
      if (fetch && !heldBack && JSON.stringify(args[1]).includes('test.stopping') && result.rows.length) {
        heldBack = true;
        picked();
        await settle(300);
      }
      return result;
    });
    onTestFinished(() => spy.mockRestore());

    const jobs = queue();
    let ran = false;
    let finished = false;
    jobs.work('test.stopping', async () => {
      ran = true;
      await database.db.execute(sql`select 1`);
      finished = true;
    });
    await jobs.start();
    await jobs.send('test.stopping', { n: 1 });
    await jobPicked;
    await jobs.stop({ graceful: true });

    expect({ ran, finished }).toEqual({ ran: true, finished: true });
    expect((await jobRows('test.stopping')).map((r) => r.state)).toEqual(['completed']);
  });

  it('keeps a job enqueued by a web-only process and runs it after a restart', async () => {
    const web = queue({ work: false });
    const seen: number[] = [];
    web.work('test.web-only', async (data) => {
      seen.push(data.n);
    });
    await web.start();
    const id = await web.send('test.web-only', { n: 7 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await settle(1200);
    expect(seen).toEqual([]);
    await web.stop({ graceful: true });

    const worker = queue();
    worker.work('test.web-only', async (data) => {
      seen.push(data.n);
    });
    await worker.start();
    await vi.waitFor(() => expect(seen).toEqual([7]), { timeout: 45_000, interval: 100 });
    await vi.waitFor(async () => expect((await jobRows('test.web-only'))[0]?.state).toBe('completed'), {
      timeout: 45_000,
      interval: 100,
    });
  });

  it('retries a failing job with a delay, then leaves it failed and logs it without its payload', async () => {
    const logs: LogEntry[] = [];
    const jobs = queue({ logs });
    const attempts: Array<{ attempt: number; at: number }> = [];
    jobs.work('test.flaky', async (_data, job) => {
      attempts.push({ attempt: job.attempt, at: Date.now() });
      throw new TypeError('SMTP recusou joao@example.com');
    });
    await jobs.start();
    const id = await jobs.send('test.flaky', { orderId: 31 });

    await vi.waitFor(async () => expect((await jobRows('test.flaky'))[0]?.state).toBe('failed'), {
      timeout: 45_000,
      interval: 200,
    });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    const [first, second] = attempts;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);

    expect(logs.map((l) => [l.level, l.obj])).toEqual([
      ['warn', { job: 'test.flaky', jobId: id, attempt: 1, error: 'TypeError' }],
      ['error', { job: 'test.flaky', jobId: id, attempt: 2, error: 'TypeError' }],
    ]);
    expect(JSON.stringify(logs)).not.toContain('joao@example.com');
  });

  it('runs each of 50 jobs exactly once when two processes work the same queue', async () => {
    // On PostgreSQL the second "process" gets its own pool, so the two really race for rows.
    const other =
      database.kind === 'postgres'
        ? await openDatabase({
            url: (database.db as unknown as { $client: pg.Pool }).$client.options.connectionString,
          })
        : database;
    onTestFinished(async () => {
      if (other !== database) await other.close();
    });
    const runs = new Map<number, number>();
    const perProcess = [0, 0];
    const processes = [queue(), queue({ on: other })];
    processes.forEach((jobs, p) => {
      jobs.work(
        'test.bulk',
        async (data) => {
          runs.set(data.n, (runs.get(data.n) ?? 0) + 1);
          perProcess[p]! += 1;
          await settle(5);
        },
        { concurrency: 3 },
      );
    });
    for (const jobs of processes) await jobs.start();

    await Promise.all(Array.from({ length: 50 }, (_, n) => processes[n % 2]!.send('test.bulk', { n })));

    await vi.waitFor(() => expect(runs.size).toBe(50), { timeout: 45_000, interval: 100 });
    await settle(1200);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(perProcess[0]! + perProcess[1]!).toBe(50);
    const states = new Set((await jobRows('test.bulk')).map((r) => r.state));
    expect([...states]).toEqual(['completed']);
  });

  it('registers a schedule in the store time zone, before or after start', async () => {
    const jobs = queue();
    await jobs.schedule('test.nightly', '0 3 * * *', { kind: 'limpeza' });
    await jobs.start();
    await jobs.schedule('test.echo', '*/5 * * * *');

    const result = (await database.db.execute(
      sql`select name, cron, timezone, data from pgboss.schedule order by name`,
    )) as { rows: unknown[] };
    expect(result.rows).toEqual([
      { name: 'test.echo', cron: '*/5 * * * *', timezone: 'America/Fortaleza', data: {} },
      { name: 'test.nightly', cron: '0 3 * * *', timezone: 'America/Fortaleza', data: { kind: 'limpeza' } },
    ]);
  });

  it('refuses to enqueue before the queue has started', async () => {
    const jobs = queue();
    await expect(jobs.send('test.echo', { n: 1 })).rejects.toThrow('Fila de tarefas parada');
  });
});

describe('the app’s scheduled queues', () => {
  it.each(['charges.reconcile-all', 'privacy.retention'] as const)(
    '%s: a run left active by a process that died does not hold back the next run',
    async (name) => {
      const silent = { info: () => {}, warn: () => {}, error: () => {} };
      const open = (work: boolean) => {
        const jobs = createJobs({
          database,
          catalog: { [name]: jobCatalog[name] },
          work,
          pollSeconds: 0.5,
          log: silent,
        });
        onTestFinished(() => jobs.stop({ graceful: false }));
        return jobs;
      };
      const web = open(false);
      await web.start();
      // The run the dead process had taken: pg-boss counts it active until it expires.
      const dead = await web.send(name, {});
      await database.db.execute(
        sql`update pgboss.job set state = 'active', started_on = now() where name = ${name} and id = ${dead}`,
      );
      const next = await web.send(name, {});
      expect(next).not.toBeNull();

      const worker = open(true);
      const ran: string[] = [];
      worker.work(name, async (_data, job) => {
        ran.push(job.id);
      });
      await worker.start();
      await vi.waitFor(() => expect(ran).toEqual([next]), { timeout: 45_000, interval: 100 });
      expect((await jobRows(name)).map((r) => r.state)).toEqual(['active', 'completed']);
    },
  );
});

describe('jobs plugin', () => {
  it('starts with the app and lets a job in flight finish when the app closes', async () => {
    const app = Fastify({ logger: false });
    await app.register(
      fp(
        async (a) => {
          a.decorate('database', database);
        },
        { name: 'infra' },
      ),
    );
    await app.register(jobsPlugin, { enabled: true, pollSeconds: 0.5 });
    let finished = false;
    let started = false;
    app.jobs.work('charges.expire', async () => {
      started = true;
      await settle(700);
      finished = true;
    });
    await app.ready();

    await app.jobs.send('charges.expire', { chargeId: 42 });
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 45_000, interval: 50 });
    await app.close();

    expect(finished).toBe(true);
    expect(await jobRows('charges.expire')).toEqual([
      { state: 'completed', data: { chargeId: 42 }, retry_count: 0 },
    ]);
  });
});
