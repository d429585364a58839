import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumFlags } from '../../apps/web/e2e/chromium-flags.ts';
import { middleOf } from './median.ts';

export const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface PageScores {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

/**
 * Where the largest paint's time went (Lighthouse's "LCP breakdown": time to first byte, resource load
 * delay, load time, render delay), to see which part a change should shrink.
 */
function lcpPhases(details: unknown): string {
  const tables = (details as { items?: Array<{ items?: Array<{ phase?: string; timing?: number }> }> })
    ?.items;
  const phases = tables
    ?.flatMap((table) => table.items ?? [])
    .filter((row) => row.phase && row.timing !== undefined);
  if (!phases?.length) return 'no breakdown';
  return phases.map((row) => `${row.phase} ${Math.round(row.timing!)} ms`).join(', ');
}

async function oneRun(url: string, port: number): Promise<PageScores | null> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
    {
      extends: 'lighthouse:default',
      settings: {
        formFactor: 'mobile',
        screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
      },
    },
  );
  const lhr = result?.lhr;
  if (!lhr || lhr.runtimeError) {
    console.log(`  Lighthouse error on ${url}: ${lhr?.runtimeError?.code} ${lhr?.runtimeError?.message}`);
    return null;
  }
  const lcpElement = JSON.stringify(lhr.audits['largest-contentful-paint-element']?.details ?? {});
  console.log(
    `  ${url}: performance ${lhr.categories.performance?.score}, FCP ${lhr.audits['first-contentful-paint']?.displayValue}, LCP ${lhr.audits['largest-contentful-paint']?.displayValue} (${/"selector":"[^"]*"/.exec(lcpElement)?.[0] ?? '?'}; ${lcpPhases(lhr.audits['largest-contentful-paint-element']?.details)}), TBT ${lhr.audits['total-blocking-time']?.displayValue}, CLS ${lhr.audits['cumulative-layout-shift']?.displayValue}`,
  );
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
  };
}

/**
 * Lighthouse scores vary from run to run (more so on a busy machine), so each page is measured
 * RUNS times, each in a fresh Chromium, and the median of each figure counts, as Lighthouse's own
 * docs advise. A run that fails to record (e.g. NO_NAVSTART) is retried.
 */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

export async function medianScores(url: string): Promise<PageScores> {
  const runs: PageScores[] = [];
  for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: chromiumFlags });
    try {
      const scores = await oneRun(url, chrome.port);
      if (scores) runs.push(scores);
    } finally {
      chrome.kill();
    }
  }
  const median = (pick: (s: PageScores) => number) => middleOf(runs.map(pick), (v) => v) ?? Number.NaN;
  return {
    performance: median((s) => s.performance),
    accessibility: median((s) => s.accessibility),
    lcpMs: median((s) => s.lcpMs),
    tbtMs: median((s) => s.tbtMs),
    cls: median((s) => s.cls),
  };
}
