import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-pg',
          root: './apps/api',
          include: ['src/**/*.pg.test.ts'],
          environment: 'node',
          globalSetup: ['./src/test/global-setup.ts'],
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
          passWithNoTests: true,
        },
      },
    ],
  },
});
