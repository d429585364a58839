import { AsyncLocalStorage } from 'node:async_hooks';

/** The job a piece of code runs for: its queue, pg-boss id and attempt (1 for the first try). */
export interface JobContext {
  name: string;
  id: string;
  attempt: number;
}

const storage = new AsyncLocalStorage<JobContext>();

/** Runs `fn` as part of `job`: what it calls can ask `currentJob()` (the message log does). */
export function runInJob<T>(job: JobContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(job, fn);
}

/** The job the caller runs for, or undefined in a request or a script. */
export function currentJob(): JobContext | undefined {
  return storage.getStore();
}
