import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, requirePostgres, type TestApp } from '../test-app.ts';
import {
  checkWithinBudget,
  type FileContext,
  kindsNotDone,
  MODEL_ENV,
  modelSettings,
  opsArbitrary,
  prepareFile,
  runSequence,
  worldArbitrary,
} from './sale-model.ts';

requirePostgres();

// Bounded for `npm test`; MODEL_RUNS, MODEL_STEPS and MODEL_SEED (MODEL_PATH) for longer or replayed runs.
const settings = modelSettings({ runs: 2, steps: 8 });
const TIME_BUDGET_MS = Number(process.env.MODEL_BUDGET_MS ?? 50_000);

/**
 * The same model on PostgreSQL with two shop processes on one database: steps taken in turn by each,
 * and in runs drawn so, each pair of steps sent to both at once.
 */
describe('a sale and every change to it, on two shops, against a reference model', () => {
  const clock = { now: new Date('2026-11-02T13:00:00Z') };
  let first: TestApp;
  let second: TestApp;
  let ctx: FileContext;

  beforeAll(async () => {
    first = await createTestApp({ env: MODEL_ENV, now: () => clock.now });
    second = await createTestApp({ env: MODEL_ENV, database: first.database, now: () => clock.now });
    ctx = await prepareFile({ shops: [first, second], db: first.app.db, clock, cpfBase: 720_000_000 });
  });
  afterAll(async () => {
    await second?.app.close();
    await first?.close();
  });

  it(
    'holds every rule after every step, steps alternating and racing between the two shops',
    async () => {
      console.info(
        `sale model (two shops): seed ${settings.seed}, ${settings.runs} runs of up to ${settings.steps} steps; replay with MODEL_SEED=${settings.seed}`,
      );
      const { details, runs } = await checkWithinBudget(
        fc.asyncProperty(worldArbitrary, opsArbitrary(settings.steps), fc.boolean(), (shape, ops, race) =>
          runSequence(ctx, shape, ops, { race }),
        ),
        settings,
        TIME_BUDGET_MS,
      );
      if (details.failed) {
        throw new Error(
          `${fc.defaultReportMessage(details)}\n${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\nReplay: MODEL_SEED=${details.seed} MODEL_PATH=${details.counterexamplePath} bash scripts/ensure-postgres.sh npx vitest run apps/api/src/test/model/sale-model.pg.test.ts --project api-pg`,
        );
      }
      console.info(
        `sale model (two shops): ${runs} runs passed (seed ${settings.seed}); operations done: ${JSON.stringify(ctx.done)}`,
      );
      console.info(
        `sale model (two shops): operation kinds never done: ${JSON.stringify(kindsNotDone(ctx.done))}`,
      );
    },
    // The first run completes whatever it takes (checkWithinBudget); on a loaded machine it has taken minutes.
    TIME_BUDGET_MS + 240_000,
  );
});
