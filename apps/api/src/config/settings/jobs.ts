import { z } from 'zod';
import { bool } from './parsers.ts';

/** Background jobs and the openings each process keeps in memory. */
export const jobSettings = {
  /** False for a process that only serves the web: it enqueues jobs but runs none. */
  JOBS_ENABLED: bool.default(true),
  /**
   * How often an idle worker asks the database for new jobs. A job sent wakes its queue's workers at once
   * (jobs/jobs.ts); the poll is for retries, cron schedules and jobs another process sent to start later.
   */
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5, 'mínimo 0.5').default(10),
  /**
   * How often each process reads the openings' rows again (waiting rooms: pre-queue size, rate),
   * besides every save's notification; position polls answer from that copy (docs/decisions/0046).
   */
  OPENING_REFRESH_MS: z.coerce.number().int().min(100, 'mínimo 100').max(60_000).default(1000),
  /**
   * The most joins of one event's waiting room a process writes in one transaction: joins that arrive
   * while the previous batch is being written go together in the next (docs/decisions/0054).
   */
  OPENING_JOIN_BATCH_MAX: z.coerce.number().int().min(1).max(5000).default(500),
};
