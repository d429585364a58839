/**
 * Performance budgets (npm run bench). Builds nothing: run `npm run build` first. Starts the built
 * shop on a free port with a throw-away database, then measures
 *   - the gzip size of the JavaScript that `/` loads (every script the page fetches in Chromium,
 *     gzipped from dist at level 9, so the number does not depend on the server's compression), and
 *   - Lighthouse mobile performance and accessibility on / and /produto/1.
 * Prints a table and exits non-zero when a budget is missed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The same offline-friendly flags the end-to-end tests use (apps/web/playwright.config.ts).
const chromeFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const BUDGETS = { homeJsGzipKB: 150, performance: 90, accessibility: 95 };

interface Row {
  what: string;
  value: string;
  budget: string;
  ok: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(baseURL: string, shop: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (shop.exitCode !== null) throw new Error(`the shop exited with code ${shop.exitCode}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the shop did not answer /api/health within 120 s');
}

async function homeJavaScriptGzip(baseURL: string): Promise<{ bytes: number; files: string[] }> {
  const browser = await chromium.launch({ executablePath: chromePath, args: chromeFlags });
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.add(new URL(res.url()).pathname);
    });
    await page.goto(`${baseURL}/`, { waitUntil: 'networkidle' });
    let bytes = 0;
    for (const file of scripts) {
      const onDisk = path.join(dist, file);
      if (!existsSync(onDisk)) throw new Error(`${file} was loaded but is not in dist`);
      bytes += gzipSync(readFileSync(onDisk), { level: 9 }).length;
    }
    return { bytes, files: [...scripts].sort() };
  } finally {
    await browser.close();
  }
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;

async function lighthouseScores(
  url: string,
  port: number,
): Promise<{ performance: number; accessibility: number } | null> {
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
  const categories = result?.lhr.categories;
  // The metrics behind the score, so a missed budget says where the time went.
  const metrics = METRICS.map((id) => `${id} ${result?.lhr.audits[id]?.displayValue ?? '?'}`).join(', ');
  const lcpElement = result?.lhr.audits['largest-contentful-paint-element']?.details;
  console.log(`${url}: ${metrics}`);
  if (result?.lhr.runtimeError) {
    console.log(`  Lighthouse error: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return null;
  }
  if (lcpElement)
    console.log(`  LCP element: ${JSON.stringify(lcpElement).match(/"selector":"[^"]*"/)?.[0] ?? '?'}`);
  return {
    performance: Math.round((categories?.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories?.accessibility?.score ?? 0) * 100),
  };
}

/**
 * Lighthouse scores vary from run to run (more so on a busy machine), so each page is measured
 * RUNS times, each in a fresh Chromium, and the median counts, as Lighthouse's own docs advise.
 * A run that fails to record (e.g. NO_NAVSTART) is retried.
 */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

async function medianScores(url: string): Promise<{ performance: number; accessibility: number }> {
  const runs: Array<{ performance: number; accessibility: number }> = [];
  for (let attempt = 0; runs.length < RUNS && attempt < RUNS * 2; attempt++) {
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags });
    try {
      const scores = await lighthouseScores(url, chrome.port);
      if (scores) runs.push(scores);
    } finally {
      chrome.kill();
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    performance: median(runs.map((r) => r.performance)),
    accessibility: median(runs.map((r) => r.accessibility)),
  };
}

async function main(): Promise<number> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.error('apps/web/dist is missing: run `npm run build` first.');
    return 2;
  }
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'passada-bench-'));
  const shop = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      PAYMENTS: 'simulado',
      MAIL_PROVIDER: 'outbox',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseURL,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const rows: Row[] = [];
  try {
    await waitForHealth(baseURL, shop);

    const js = await homeJavaScriptGzip(baseURL);
    const kb = js.bytes / 1024;
    console.log(`JavaScript loaded by /: ${js.files.join(', ')}`);
    rows.push({
      what: 'JS loaded by / (gzip)',
      value: `${kb.toFixed(1)} KB`,
      budget: `≤ ${BUDGETS.homeJsGzipKB} KB`,
      ok: kb <= BUDGETS.homeJsGzipKB,
    });

    for (const page of ['/', '/produto/1']) {
      const scores = await medianScores(`${baseURL}${page}`);
      rows.push({
        what: `Lighthouse performance ${page}`,
        value: String(scores.performance),
        budget: `≥ ${BUDGETS.performance}`,
        ok: scores.performance >= BUDGETS.performance,
      });
      rows.push({
        what: `Lighthouse accessibility ${page}`,
        value: String(scores.accessibility),
        budget: `≥ ${BUDGETS.accessibility}`,
        ok: scores.accessibility >= BUDGETS.accessibility,
      });
    }
  } finally {
    if (shop.pid) {
      try {
        process.kill(-shop.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.table(
    rows.map((r) => ({ medida: r.what, valor: r.value, limite: r.budget, ok: r.ok ? 'sim' : 'NÃO' })),
  );
  const missed = rows.filter((r) => !r.ok);
  if (missed.length) console.error(`Orçamento estourado: ${missed.map((r) => r.what).join('; ')}`);
  return missed.length ? 1 : 0;
}

process.exitCode = await main();
