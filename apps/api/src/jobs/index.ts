import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type AppJobCatalog, jobCatalog } from './job-catalog.ts';
import { createJobs, type Jobs } from './jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job queue: `send` (with `tx` to enqueue in a transaction), `work`, `schedule`. */
    jobs: Jobs<AppJobCatalog>;
  }
}

export interface JobsPluginOptions {
  /** JOBS_ENABLED: false runs only the web part (it still enqueues). */
  enabled: boolean;
  /** JOBS_POLL_SECONDS. */
  pollSeconds: number;
}

/**
 * Starts the queue once every plugin has registered its handlers (`onReady`) and, on close, lets
 * the jobs in flight finish before the database goes.
 */
export default fp(
  async (app: FastifyInstance, opts: JobsPluginOptions) => {
    const jobs = createJobs({
      database: app.database,
      log: app.log,
      catalog: jobCatalog,
      work: opts.enabled,
      pollSeconds: opts.pollSeconds,
    });
    app.decorate('jobs', jobs);
    app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => jobs.stop({ graceful: true }));
  },
  { name: 'jobs', fastify: '5.x', dependencies: ['infra'] },
);
