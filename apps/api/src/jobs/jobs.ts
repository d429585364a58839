import { STORE_TIME_ZONE } from '@passada/core/calendar';
import PgBoss from 'pg-boss';
import type { Database, Tx } from '../db/client.ts';
import type { JobCatalog, JobData, JobName } from './job-catalog.ts';
import { runInJob } from './job-context.ts';
import { databaseExecutor, trackedExecutor, transactionExecutor } from './job-sql.ts';

/** Cron expressions read in the store's time zone ("0 3 * * *" is 3 a.m. in Fortaleza). */
const SCHEDULE_TIME_ZONE = STORE_TIME_ZONE;

/**
 * The NOTIFY channel on which a job sent wakes its queue's workers in every process, once the sending
 * transaction commits (the payload is the queue's name); the poll (JOBS_POLL_SECONDS) remains for what
 * no one announces: retries, cron schedules, and jobs sent to start later by another process.
 */
const JOBS_CHANNEL = 'passada_jobs';
/** A job to start later than this is left to the poll rather than a timer. */
const MAX_WAKE_LATER_MS = 24 * 3_600_000;

const DEFAULT_RETRY_LIMIT = 5;
const DEFAULT_RETRY_DELAY_SECONDS = 30;

type LogFn = (obj: object, msg: string) => void;
/** Fastify's (pino's) logger fits. */
export interface JobsLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists only if it commits. */
  tx?: Tx;
  /** Not before this moment (a Date) or this many seconds from now (a number). */
  startAfter?: Date | number;
  /** Drops a second waiting job with the same key, on queues whose policy dedupes (see `QueuePolicy`). */
  singletonKey?: string;
  /** Overrides the queue's retry limit for this job. */
  retryLimit?: number;
}

export interface JobContext {
  id: string;
  /** 1 on the first run, 2 on the first retry… */
  attempt: number;
}

export type JobHandler<TData> = (data: TData, job: JobContext) => Promise<void>;

export interface WorkOptions {
  /** Jobs of this queue run side by side in this process (default 1). */
  concurrency?: number;
}

export interface Jobs<C extends JobCatalog> {
  /** Creates (or upgrades) the queue tables and the catalog's queues, then starts the workers. */
  start(): Promise<void>;
  /** With `graceful`, waits for the jobs in flight; otherwise they go back to the queue for a retry. */
  stop(opts?: { graceful?: boolean }): Promise<void>;
  /**
   * Enqueues a job; answers its id, or null when the queue's policy dropped it because a job like it
   * (the same `singletonKey`, or none on a deduplicating queue) is already waiting.
   */
  send<N extends JobName<C>>(name: N, data: JobData<C, N>, opts?: SendOptions): Promise<string | null>;
  /**
   * Enqueues several jobs in one statement (inside `tx`: all of them commit with it or none). Only
   * for queues without a deduplicating policy, where no job can be dropped.
   */
  sendAll(jobs: ReadonlyArray<JobRequest<C>>, opts?: { tx?: Tx }): Promise<void>;
  /** Registers the handler of a queue; it runs once started, in processes where work is enabled. */
  work<N extends JobName<C>>(name: N, handler: JobHandler<JobData<C, N>>, opts?: WorkOptions): void;
  /** Enqueues `name` with `data` at each `cron` tick (store time zone); one row per name, kept across restarts. */
  schedule<N extends JobName<C>>(name: N, cron: string, data?: JobData<C, N>): Promise<void>;
}

/** One job of `sendAll`: a queue's name and its payload. */
export type JobRequest<C extends JobCatalog> = {
  [N in JobName<C>]: { name: N; data: JobData<C, N> };
}[JobName<C>];

export interface CreateJobsOptions<C extends JobCatalog> {
  database: Database;
  log: JobsLogger;
  catalog: C;
  /** False in a process that only serves the web: it enqueues and schedules but runs nothing. */
  work?: boolean;
  /** How often an idle worker asks for new jobs (at least 0.5 s). */
  pollSeconds?: number;
}

interface Registration {
  name: string;
  handler: JobHandler<object>;
  concurrency: number;
}

/**
 * A durable job queue in the app's own database (docs/decisions/0012-job-queue.md): pg-boss over
 * the PGlite instance or the PostgreSQL pool that `Database` already holds.
 */
export function createJobs<C extends JobCatalog>(opts: CreateJobsOptions<C>): Jobs<C> {
  const { catalog, log } = opts;
  const working = opts.work ?? true;
  const pollingIntervalSeconds = opts.pollSeconds ?? 2;
  const executor = trackedExecutor(databaseExecutor(opts.database));
  const boss = new PgBoss({
    db: executor,
    // A web-only process neither fires cron schedules nor runs maintenance; the workers do.
    schedule: working,
    supervise: working,
    pollingIntervalSeconds,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (err: Error) => log.error({ err }, 'Fila de tarefas: erro interno'));

  const registrations: Registration[] = [];
  const pendingSchedules: Array<() => Promise<void>> = [];
  /** Handlers running now, so `stop` can wait for them (see there). */
  const runningJobs = new Set<Promise<void>>();
  /** Each queue's pg-boss workers in this process, to wake them when a job arrives. */
  const workerIds = new Map<string, string[]>();
  /** Wake-ups of jobs sent to start later, in this process (the poll covers a restart). */
  const timers = new Set<NodeJS.Timeout>();
  let stopListening: (() => Promise<void>) | null = null;
  let started = false;

  /** Wakes the workers of `name` (every queue's when null): they ask for a job now, not at their next poll. */
  function wake(name: string | null) {
    if (!started) return;
    const ids = name === null ? [...workerIds.values()].flat() : (workerIds.get(name) ?? []);
    for (const id of ids) boss.notifyWorker(id);
  }

  /** Tells every process's workers of `name` that a job is waiting: NOTIFY, delivered when `tx` commits. */
  async function announce(name: string, tx?: Tx) {
    await (tx ? transactionExecutor(tx) : executor).executeSql('select pg_notify($1, $2)', [
      JOBS_CHANNEL,
      name,
    ]);
  }

  /** A job sent to start later: its queue is woken then, in this process. */
  function wakeLater(name: string, startAfter: Date | number) {
    const ms = typeof startAfter === 'number' ? startAfter * 1000 : startAfter.getTime() - Date.now();
    if (ms > MAX_WAKE_LATER_MS) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      wake(name);
    }, Math.max(0, ms) + 50);
    timer.unref();
    timers.add(timer);
  }

  async function startWorkers(reg: Registration) {
    const ids = workerIds.get(reg.name) ?? [];
    workerIds.set(reg.name, ids);
    for (let i = 0; i < reg.concurrency; i++) {
      const id: string = await boss.work<object>(
        reg.name,
        { includeMetadata: true, pollingIntervalSeconds, batchSize: 1 },
        async ([job]) => {
          if (!job) return;
          const began = Date.now();
          const run = runJob(reg, job);
          runningJobs.add(run);
          try {
            await run;
          } finally {
            runningJobs.delete(run);
            // A worker that just ran a job asks again soon, not at its next poll: more may be waiting
            // (several sent together wake it once). It first rests as long as the job ran, so a queue of
            // heavy jobs (a race's certificates) takes at most half of a worker's time and the web's
            // answers keep theirs; a job sent meanwhile wakes it at once.
            setTimeout(
              () => boss.notifyWorker(id),
              Math.min(Date.now() - began, pollingIntervalSeconds * 1000),
            ).unref();
          }
        },
      );
      ids.push(id);
    }
  }

  async function runJob(reg: Registration, job: PgBoss.JobWithMetadata<object>) {
    const attempt = job.retryCount + 1;
    try {
      await runInJob({ name: reg.name, id: job.id, attempt }, async () =>
        reg.handler(job.data, { id: job.id, attempt }),
      );
    } catch (err) {
      // Only the error's class: messages from outside (SMTP, payment APIs) may quote an address or
      // a name. The full error stays in the job's `output` column.
      const entry = { job: reg.name, jobId: job.id, attempt, error: errorName(err) };
      if (job.retryCount >= job.retryLimit) log.error(entry, 'Tarefa falhou de vez; não será repetida');
      else log.warn(entry, 'Tarefa falhou; nova tentativa agendada');
      throw err;
    }
  }

  return {
    async start() {
      if (started) return;
      await boss.start();
      for (const [name, def] of Object.entries(catalog)) {
        const settings = {
          name,
          policy: def.policy ?? 'standard',
          retryLimit: def.retryLimit ?? DEFAULT_RETRY_LIMIT,
          retryDelay: def.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
          retryBackoff: true,
          ...(def.expireInSeconds ? { expireInSeconds: def.expireInSeconds } : {}),
        };
        // createQueue leaves an existing queue alone; updateQueue makes the catalog win after a change.
        await boss.createQueue(name, settings);
        await boss.updateQueue(name, settings);
      }
      started = true;
      for (const register of pendingSchedules.splice(0)) await register();
      if (working) {
        // A null payload (notifications may have been lost while the listener reconnected) wakes every queue.
        stopListening = await opts.database.listen(JOBS_CHANNEL, (payload) => wake(payload));
        for (const reg of registrations) await startWorkers(reg);
      }
    },

    async stop({ graceful = true } = {}) {
      if (!started) return;
      started = false;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await stopListening?.();
      stopListening = null;
      await boss.stop({ graceful, close: false, wait: true });
      // pg-boss says it stopped once no job is running, but a worker whose fetch was still in flight
      // then gets its job, runs it, and marks it done or failed without awaiting that statement. Wait
      // until no handler and no statement of pg-boss's is left for a whole turn of the event loop, so
      // nothing reaches the database after the caller closes it.
      // Without `graceful` pg-boss has already put them back for a retry, and only its statements count.
      const waitForJobs = () => graceful && runningJobs.size > 0;
      do {
        if (graceful) await Promise.allSettled([...runningJobs]);
        await executor.settled();
        await new Promise((resolve) => setTimeout(resolve, 20));
      } while (waitForJobs() || executor.busy());
    },

    async send(name, data, sendOpts = {}) {
      if (!started) throw new Error(`Fila de tarefas parada: não foi possível enfileirar "${name}".`);
      const { tx, startAfter, singletonKey, retryLimit } = sendOpts;
      const id = await boss.send(name, data, {
        ...(tx ? { db: transactionExecutor(tx) } : {}),
        ...(startAfter !== undefined ? { startAfter } : {}),
        ...(singletonKey !== undefined ? { singletonKey } : {}),
        ...(retryLimit !== undefined ? { retryLimit } : {}),
      } as PgBoss.SendOptions);
      // A queue that dedupes (`short`, `stately`) drops a job while one like it waits: by design, the
      // waiting one does the same work (a sweep asked while the schedule's own run is queued). On a
      // `standard` queue nothing may be dropped silently.
      const policy = (catalog[name] as { policy?: string } | undefined)?.policy ?? 'standard';
      if (id === null && singletonKey === undefined && policy === 'standard') {
        throw new Error(`Fila de tarefas: "${name}" não foi enfileirada.`);
      }
      if (id !== null) {
        if (startAfter === undefined) await announce(name, tx);
        else wakeLater(name, startAfter);
      }
      return id;
    },

    async sendAll(jobs, sendOpts = {}) {
      if (jobs.length === 0) return;
      if (!started) throw new Error('Fila de tarefas parada: não foi possível enfileirar as tarefas.');
      for (const { name } of jobs) {
        // A deduplicating queue may drop a job without saying so in a batch insert: send those one by one.
        const policy = (catalog[name] as { policy?: string } | undefined)?.policy ?? 'standard';
        if (policy !== 'standard') throw new Error(`Fila de tarefas: "${name}" deduplica; use send.`);
      }
      await boss.insert(
        jobs.map(({ name, data }) => ({ name, data: data as object })),
        sendOpts.tx ? { db: transactionExecutor(sendOpts.tx) } : {},
      );
      for (const name of new Set(jobs.map((j) => j.name))) await announce(name, sendOpts.tx);
    },

    work(name, handler, workOpts = {}) {
      if (registrations.some((r) => r.name === name)) {
        throw new Error(`Fila de tarefas: "${name}" já tem quem a execute.`);
      }
      const reg: Registration = {
        name,
        handler: handler as JobHandler<object>,
        concurrency: workOpts.concurrency ?? 1,
      };
      registrations.push(reg);
      if (started && working) {
        startWorkers(reg).catch((err: unknown) =>
          log.error({ job: name, error: errorName(err) }, 'Fila de tarefas: executor não iniciou'),
        );
      }
    },

    async schedule(name, cron, data) {
      const register = () => boss.schedule(name, cron, data ?? {}, { tz: SCHEDULE_TIME_ZONE });
      if (started) await register();
      else pendingSchedules.push(register);
    },
  };
}

function errorName(err: unknown): string {
  if (err instanceof Error) return err.name;
  return typeof err;
}
