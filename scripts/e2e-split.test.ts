import { describe, expect, it } from 'vitest';
import { durationsFromReports, plan } from './e2e-split.ts';

describe('the end-to-end runs split by time', () => {
  it('gives the long specs to different runs and ends the runs together', () => {
    const seconds = {
      'a.spec.ts': 300,
      'b.spec.ts': 280,
      'c.spec.ts': 100,
      'd.spec.ts': 90,
      'e.spec.ts': 10,
    };
    const [one, two] = plan(Object.keys(seconds), seconds, 2);
    const total = (part: string[] = []) =>
      part.reduce((sum, spec) => sum + (seconds[spec as 'a.spec.ts'] ?? 0), 0);
    // By name, a count split would give a and b (580 s) to one run and the other 200 s.
    expect(one?.includes('a.spec.ts') !== two?.includes('a.spec.ts')).toBe(true);
    expect(one?.includes('a.spec.ts') !== one?.includes('b.spec.ts')).toBe(true);
    expect(Math.abs(total(one) - total(two))).toBeLessThanOrEqual(20);
    expect([...(one ?? []), ...(two ?? [])].sort()).toEqual(Object.keys(seconds));
  });

  it('counts a spec it has no time for as the median', () => {
    const parts = plan(
      ['new.spec.ts', 'a.spec.ts', 'b.spec.ts', 'c.spec.ts'],
      { 'a.spec.ts': 50, 'b.spec.ts': 40, 'c.spec.ts': 10 },
      2,
    );
    // Counted as 40 (the median), the new spec follows a (50) and b (40) to b's run, then c to a's.
    expect(parts.find((p) => p.includes('b.spec.ts'))).toEqual(['b.spec.ts', 'new.spec.ts']);
    expect(parts.find((p) => p.includes('a.spec.ts'))).toEqual(['a.spec.ts', 'c.spec.ts']);
  });

  it('reads each file’s seconds from Playwright’s JSON report, retries and nested describes included', () => {
    const report = {
      suites: [
        {
          file: 'layout.spec.ts',
          specs: [{ tests: [{ results: [{ duration: 1500 }, { duration: 500 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 3000 }] }] }] }],
        },
        { file: 'shell.spec.ts', specs: [{ tests: [{ results: [{ duration: 250 }] }] }] },
      ],
    };
    expect(durationsFromReports([report])).toEqual({ 'layout.spec.ts': 5, 'shell.spec.ts': 0.3 });
  });
});
