import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run for minutes. Vitest starts the longest files first once it has timed them (its
 * cache), but a fresh clone has no cache and starts the largest; these go first there too, so no
 * worker is left running one of them alone at the end.
 */
const slowFiles = ['src/test/api-fuzz.test.ts', 'src/test/crash.pg.test.ts', 'src/test/processes.pg.test.ts'];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => slowFiles.some((name) => file.moduleId.endsWith(name));
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}

export default defineConfig({
  test: {
    // Vitest runs as many files at once as there are cores minus one: a single file on two cores. The
    // API files spend much of their time waiting (job polls, timers, PostgreSQL's own processes), so a
    // second file fills that time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      // Checks of the repository itself: import boundaries, docs that must match the code.
      {
        test: {
          name: 'repo',
          root: '.',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      { test: { name: 'core', root: './packages/core', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          root: './apps/api',
          include: ['src/**/*.test.ts'],
          // Suites that need a real PostgreSQL server run in 'api-pg'.
          exclude: ['src/**/*.pg.test.ts'],
          environment: 'node',
          // One migrated database per run, copied for each file (src/test/global-setup.ts).
          globalSetup: ['./src/test/global-setup.ts'],
          // A worker keeps the modules it imported from one file to the next: each file imported the whole
          // app again (Fastify, drizzle, pg-boss, the modules), 1.5 to 9 s a file, about half the stage's
          // CPU. Each file still has its own app and database (createTestApp); the modules' own state is
          // caches of pure values (drawings, city codes, formats), which no file can make wrong for another.
          isolate: false,
          // Generous on purpose: a passing test never waits for these, and on a loaded two-core machine
          // (other runs beside this one) a test that takes 5 s alone has been seen to take 30.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api-pg',
          root: './apps/api',
          include: ['src/**/*.pg.test.ts'],
          environment: 'node',
          globalSetup: ['./src/test/global-setup.ts'],
          // As the api project: the files keep their imports (about half this stage's time was import).
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          passWithNoTests: true,
        },
      },
    ],
  },
});
