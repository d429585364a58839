import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app.ts';
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

// Bounded for `npm test` on PGlite; MODEL_RUNS, MODEL_STEPS and MODEL_SEED (MODEL_PATH) for longer or replayed runs.
const settings = modelSettings({ runs: 2, steps: 8 });
const TIME_BUDGET_MS = Number(process.env.MODEL_BUDGET_MS ?? 50_000);

/**
 * Every change to a sale, as random sequences against a reference model (apps/api/src/test/model/sale-model.ts):
 * one shop on PGlite, its clock moved forward by the steps that let a Pix expire.
 */
describe('a sale and every change to it, against a reference model', () => {
  const clock = { now: new Date('2026-11-02T13:00:00Z') };
  let t: TestApp;
  let ctx: FileContext;

  beforeAll(async () => {
    t = await createTestApp({ env: MODEL_ENV, now: () => clock.now });
    ctx = await prepareFile({ shops: [t], db: t.app.db, clock, cpfBase: 710_000_000 });
  });
  afterAll(() => t?.close());

  it(
    'holds every rule after every step',
    async () => {
      console.info(
        `sale model: seed ${settings.seed}, ${settings.runs} runs of up to ${settings.steps} steps; replay with MODEL_SEED=${settings.seed}`,
      );
      const { details, runs, interrupted } = await checkWithinBudget(
        fc.asyncProperty(worldArbitrary, opsArbitrary(settings.steps), (shape, ops) =>
          runSequence(ctx, shape, ops),
        ),
        settings,
        TIME_BUDGET_MS,
      );
      if (details.failed) {
        throw new Error(
          `${fc.defaultReportMessage(details)}\n${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\nReplay: MODEL_SEED=${details.seed} MODEL_PATH=${details.counterexamplePath} npx vitest run apps/api/src/test/model/sale-model.test.ts --project api`,
        );
      }
      console.info(
        `sale model: ${runs} runs passed (seed ${settings.seed}); operations done: ${JSON.stringify(ctx.done)}`,
      );
      const missed = kindsNotDone(ctx.done);
      console.info(`sale model: operation kinds never done: ${JSON.stringify(missed)}`);
      // The tour takes every kind in each run; with the fixed seed, a kind left undone is a change's doing.
      if (settings.fixed && !interrupted) expect(missed, 'operation kinds the runs never did').toEqual([]);
    },
    // The first run completes whatever it takes (checkWithinBudget); on a loaded machine it has taken minutes.
    TIME_BUDGET_MS + 240_000,
  );
});
