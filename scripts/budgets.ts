/**
 * Performance budgets (npm run bench): every figure of the performance table in one run, printed
 * with its goal; a missed goal makes the command fail (the tests never do). Builds nothing: run
 * `npm run build` first. Starts the built shop (compiled API when apps/api/dist exists) with demo
 * data on a free port, on a fresh embedded database and then on a fresh PostgreSQL database
 * (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres), and measures:
 *   - start-up time and memory at idle and under load of the server process;
 *   - GET /api/products/, /api/events/, /api/events/{id}/ and /api/health, 50 connections for 10 s (autocannon), against a bare
 *     node:http server sending the same bytes (body and headers), started here; BENCH_ROUNDS (3)
 *     runs of each, alternating, and the median ratio counts;
 *   - paid orders per second on PostgreSQL (Pix charge → simulated payment → order) with p99;
 *   - the CPU per paid order with an empty shop and with BENCH_PAST_ORDERS (200,000) past orders
 *     loaded (their items, charges and registrations): a purchase must not cost more as sales pile up;
 *   - the gzip size of the JavaScript that `/` loads, and Lighthouse mobile (median of 3 runs) on
 *     `/`, a product, an event and a category page.
 *   - opening (only with BENCH_ONLY=opening): a burst of BENCH_RUNNERS joins to a waiting room, then the
 *     position poll with BENCH_WAITING (100,000) waiting against the bare server, and the memory;
 *   - results (only with BENCH_ONLY=results): BENCH_RESULTS_RUNNERS (20,000) finishers published; the results
 *     page and a runner's page against the bare server; a BENCH_RESULTS_IMPORT (5,000) line file read and
 *     published; the certificates it queues sent by the job queue, with the storefront's p99 meanwhile;
 *   - desk (only with BENCH_ONLY=desk): the kit desk's snapshot of a BENCH_DESK_RUNNERS (20,000) runner event,
 *     downloaded and indexed, again with its ETag, and scans decided offline per second (docs/decisions/0063);
 * BENCH_ONLY=api,web,orders,growth runs a part (events: only the event figures of api; opening); BENCH_SECONDS, BENCH_CONNECTIONS and BENCH_ROUNDS change the load.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumFlags } from '../apps/web/e2e/chromium-flags.ts';
import { deskFigures } from './bench/checkin-desk.ts';
import { alternatingRuns, LOAD, startBare } from './bench/http-load.ts';
import { chromePath, medianScores } from './bench/lighthouse-runs.ts';
import { middleOf } from './bench/median.ts';
import { openingFigures, type PaidRegistrationFigures, paidRegistrations } from './bench/opening.ts';
import { paidOrders, roundTripsPerSecond } from './bench/paid-orders.ts';
import { loadPastOrders } from './bench/past-orders.ts';
import { resultsFigures, setUpResults } from './bench/results.ts';
import { root, rssMB, type Shop, startShop } from './bench/shop.ts';

const dist = path.join(root, 'apps/web/dist');
const only = new Set((process.env.BENCH_ONLY ?? 'api,web,orders,growth').split(','));

const GOALS = {
  ratioOfBare: 0.7,
  productsP99Ms: 50,
  homeJsGzipKB: 100,
  performance: 98,
  accessibility: 95,
  lcpMs: 1500,
  tbtMs: 50,
  cls: 0.02,
  ordersPerSecond: 200,
  ordersP99Ms: 100,
  /** CPU per paid order with the past orders loaded, over the same with an empty shop. */
  growthCpuRatio: 1.2,
  /** A 5,000-line timer file read and published (preview + publication), in ms. */
  resultsImportMs: 5_000,
};

const PAST_ORDERS = Number(process.env.BENCH_PAST_ORDERS ?? 200_000);

interface Row {
  figure: string;
  value: string;
  goal: string;
  ok: boolean;
}
const rows: Row[] = [];
const row = (figure: string, value: string, goal = '—', ok = true) => rows.push({ figure, value, goal, ok });
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function homeJavaScriptGzip(baseURL: string): Promise<{ bytes: number; files: string[] }> {
  const browser = await chromium.launch({ executablePath: chromePath, args: chromiumFlags });
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

/** The routes of the API figures and whether their p99 has a goal. */
async function apiRoutes(shop: Shop): Promise<Array<readonly [string, boolean]>> {
  const routes: Array<readonly [string, boolean]> = [];
  if (only.has('api')) routes.push(['/api/products/', true]);
  if (only.has('api') || only.has('events')) {
    // The opening's hot path: everyone reads the list and the event at the opening minute.
    const events = (await (await fetch(`${shop.baseURL}/api/events/`)).json()) as Array<{ id: number }>;
    routes.push(['/api/events/', true], [`/api/events/${events[0]?.id}/`, true]);
  }
  if (only.has('api')) routes.push(['/api/health', false]);
  return routes;
}

/**
 * One route of the shop against the bare server sending the same bytes: alternating runs, the median
 * ratio (and the p99 when it has a goal) as rows; answers the shop's peak memory under that load.
 */
async function versusBare(shop: Shop, route: string, label: string, withP99: boolean): Promise<number> {
  const url = `${shop.baseURL}${route}`;
  const rounds = await alternatingRuns(url, await startBare(url), shop.pid);
  const middle = middleOf(rounds, (r) => r.ratio)!;
  const errors = rounds.reduce((sum, r) => sum + r.shop.errors, 0);
  const all = rounds.length > 1 ? `; runs ${rounds.map((r) => fmt(r.ratio, 2)).join(', ')}` : '';
  row(
    `GET ${route} vs bare node:http (${label})`,
    `${fmt(middle.shop.requestsPerSecond)} vs ${fmt(middle.bare.requestsPerSecond)} req/s (${fmt(middle.ratio, 2)}${all})${errors ? `, ${errors} errors` : ''}`,
    `≥ ${GOALS.ratioOfBare} of bare`,
    middle.ratio >= GOALS.ratioOfBare && errors === 0,
  );
  if (withP99) {
    const p99s = rounds.map((r) => r.shop.p99Ms);
    const p99 = middleOf(p99s, (v) => v)!;
    row(
      `GET ${route} p99 (${label})`,
      `${fmt(p99)} ms${p99s.length > 1 ? ` (runs ${p99s.map((v) => fmt(v)).join(', ')})` : ''}`,
      `< ${GOALS.productsP99Ms} ms`,
      p99 < GOALS.productsP99Ms,
    );
  }
  return Math.max(...rounds.map((r) => r.shop.peakRssMB ?? 0));
}

/** Start-up, idle memory, and the API figures against the bare server, with the peak memory under load. */
async function apiFigures(shop: Shop, label: string): Promise<void> {
  row(`start-up until /api/health answers (${label})`, `${fmt(shop.startupMs)} ms`);
  await new Promise((r) => setTimeout(r, 2000));
  row(`memory at idle (${label})`, `${fmt(rssMB(shop.pid))} MB RSS`);
  let peak = 0;
  for (const [route, withP99] of await apiRoutes(shop))
    peak = Math.max(peak, await versusBare(shop, route, label, withP99));
  row(`memory under load (${label})`, `${fmt(peak)} MB RSS peak`);
}

async function webFigures(shop: Shop): Promise<void> {
  const js = await homeJavaScriptGzip(shop.baseURL);
  const kb = js.bytes / 1024;
  console.log(`JavaScript loaded by /: ${js.files.join(', ')}`);
  row(
    'JS transferred by / (gzip)',
    `${fmt(kb, 1)} KB`,
    `≤ ${GOALS.homeJsGzipKB} KB`,
    kb <= GOALS.homeJsGzipKB,
  );

  const products = (await (await fetch(`${shop.baseURL}/api/products/`)).json()) as Array<{ id: number }>;
  const events = (await (await fetch(`${shop.baseURL}/api/events/`)).json()) as Array<{ id: number }>;
  const pages = ['/', `/produto/${products[0]?.id}`, `/eventos/register/${events[0]?.id}`, '/feminino'];
  for (const page of pages) {
    const s = await medianScores(`${shop.baseURL}${page}`);
    row(
      `Lighthouse mobile performance ${page}`,
      String(s.performance),
      `≥ ${GOALS.performance}`,
      s.performance >= GOALS.performance,
    );
    row(`  LCP ${page}`, `${fmt(s.lcpMs)} ms`, `≤ ${GOALS.lcpMs} ms`, s.lcpMs <= GOALS.lcpMs);
    row(`  TBT ${page}`, `${fmt(s.tbtMs)} ms`, `≤ ${GOALS.tbtMs} ms`, s.tbtMs <= GOALS.tbtMs);
    row(`  CLS ${page}`, fmt(s.cls, 3), `≤ ${GOALS.cls}`, s.cls <= GOALS.cls);
    row(
      `  accessibility ${page}`,
      String(s.accessibility),
      `≥ ${GOALS.accessibility}`,
      s.accessibility >= GOALS.accessibility,
    );
  }
}

/** The bench's buyers sign up and pay from one address, and each buys far more than a person would. */
const BUYERS_FROM_ONE_ADDRESS = {
  SIGNUP_RATE_LIMIT_MAX: '10000',
  PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '100000',
  PAYMENTS_RATE_LIMIT_PER_IP: '100000',
};

/**
 * What a paid order costs (CPU of the shop and of PostgreSQL) in a new shop, then again once
 * PAST_ORDERS past sales are stored: every statement of a purchase must find its rows through an
 * index, so the second figure stays near the first.
 */
async function growthFigures(shop: Shop) {
  const cost = (o: Awaited<ReturnType<typeof paidOrders>>) =>
    o.cpuPerOrderMs.server + o.cpuPerOrderMs.postgres;
  const empty = await paidOrders(shop, 'vazia');
  const started = performance.now();
  await loadPastOrders(shop.databaseUrl!, PAST_ORDERS);
  const loadSeconds = (performance.now() - started) / 1000;
  const full = await paidOrders(shop, 'cheia');
  const ratio = cost(full) / cost(empty);
  row(
    `CPU per paid order (shop + PostgreSQL), empty → ${fmt(PAST_ORDERS)} past orders`,
    `${fmt(cost(empty), 1)} → ${fmt(cost(full), 1)} ms (×${fmt(ratio, 2)}; loaded in ${fmt(loadSeconds)} s)`,
    `× < ${GOALS.growthCpuRatio}`,
    ratio < GOALS.growthCpuRatio && empty.failures === 0 && full.failures === 0,
  );
}

/** The paid registrations of an opening: rate, CPU, the ceiling it implies, and the two invariants. */
function openingPaidRows(r: PaidRegistrationFigures) {
  const label = r.processes === 1 ? 'one process' : `${r.processes} processes, one database`;
  if (r.firstFailure) console.log(`first failed registration (${label}): ${r.firstFailure}`);
  const cpu = r.cpuPerPaidMs;
  const cores = availableParallelism();
  row(
    `opening: paid registrations/s, ${label} (${fmt(r.runners)} runners, ${fmt(r.capacity)} places)`,
    `${fmt(r.paidPerSecond, 1)}/s; CPU per paid registration: shop ${fmt(cpu.server, 1)} / PostgreSQL ${fmt(cpu.postgres, 1)} / client ${fmt(cpu.client, 1)} ms; ceiling of ${cores} cores ${fmt((cores * 1000) / (cpu.server + cpu.postgres + cpu.client))}/s${r.failures ? `; ${r.failures} failed` : ''}`,
    'no failure',
    r.failures === 0,
  );
  row(
    `opening: places sold, ${label}`,
    `${fmt(r.sold)} sold + ${fmt(r.placesLeft)} left of ${fmt(r.capacity)}; ${fmt(r.soldOut)} runners told it sold out`,
    '= capacity, never more',
    r.sold <= r.capacity && r.sold + r.placesLeft === r.capacity,
  );
  row(
    `opening: paid charges, ${label}`,
    `${fmt(r.paidCharges)} paid, ${fmt(r.unaccounted)} neither a registration nor a refund`,
    'each a registration or a refund',
    r.unaccounted === 0,
  );
}

async function withShop(
  database: 'pglite' | 'postgres',
  run: (shop: Shop) => Promise<void>,
  env: Record<string, string> = {},
) {
  const shop = await startShop(database, env);
  console.log(
    `${database}: ${shop.compiled ? 'compiled JavaScript' : 'TypeScript sources (no apps/api/dist)'} at ${shop.baseURL}`,
  );
  try {
    await run(shop);
  } finally {
    await shop.stop();
  }
}

async function main(): Promise<number> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.error('apps/web/dist is missing: run `npm run build` first.');
    return 2;
  }
  console.log(
    `Load: ${LOAD.connections} connections for ${LOAD.seconds} s per run; ${LOAD.rounds} runs of each API figure and of its bare server, alternating (median ratio).`,
  );
  if (only.has('api') || only.has('events') || only.has('web'))
    await withShop('pglite', async (shop) => {
      if (only.has('api') || only.has('events')) await apiFigures(shop, 'embedded');
      if (only.has('web')) await webFigures(shop);
    });
  if (only.has('api') || only.has('events') || only.has('orders')) {
    await withShop(
      'postgres',
      async (shop) => {
        if (only.has('api') || only.has('events')) await apiFigures(shop, 'PostgreSQL');
        if (only.has('orders')) {
          const o = await paidOrders(shop);
          if (o.firstFailure) console.log(`first failed purchase: ${o.firstFailure}`);
          row(
            'paid orders/s, PostgreSQL (charge → pay → order)',
            `${fmt(o.ordersPerSecond)}/s${o.failures ? `, ${o.failures} failed` : ''}`,
            `≥ ${GOALS.ordersPerSecond}/s`,
            o.ordersPerSecond >= GOALS.ordersPerSecond && o.failures === 0,
          );
          const trips = await roundTripsPerSecond(shop.databaseUrl!);
          row('  yardstick: PostgreSQL round trips/s (select $1, 10 connections)', `${fmt(trips)}/s`);
          const cpu = o.cpuPerOrderMs;
          row(
            '  CPU per order: shop / PostgreSQL / this client',
            `${fmt(cpu.server, 1)} / ${fmt(cpu.postgres, 1)} / ${fmt(cpu.client, 1)} ms`,
          );
          // All three share this machine's cores: no run here can pass this many orders per second.
          const cores = availableParallelism();
          row(
            `  ceiling of ${cores} cores at that CPU per order`,
            `${fmt((cores * 1000) / (cpu.server + cpu.postgres + cpu.client))}/s`,
          );
          row(
            '  p99 of one whole purchase',
            `${fmt(o.p99Ms)} ms`,
            `< ${GOALS.ordersP99Ms} ms`,
            o.p99Ms < GOALS.ordersP99Ms,
          );
        }
      },
      BUYERS_FROM_ONE_ADDRESS,
    );
  }
  // Every process of the opening signs turns with the same secret; joins all come from this address.
  const openingEnv = {
    ...BUYERS_FROM_ONE_ADDRESS,
    OPENING_JOIN_RATE_LIMIT_PER_IP: '100000',
    CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
  };
  if (only.has('opening')) {
    await withShop(
      'postgres',
      async (shop) => {
        const o = await openingFigures(shop);
        row(
          `opening: ${fmt(o.runners)} runners join in one burst`,
          `${fmt(o.joinsPerSecond)} joins/s, p99 ${fmt(o.joinP99Ms)} ms, CPU per join shop ${fmt(o.joinCpuMs.server, 2)} / PostgreSQL ${fmt(o.joinCpuMs.postgres, 2)} ms; ${fmt(o.distinctArrivals)} distinct arrival numbers`,
          'one number each',
          o.distinctArrivals === o.runners,
        );
        const middle = middleOf(o.poll, (p) => p.ratio)!;
        const errors = o.poll.reduce((sum, p) => sum + p.shop.errors, 0);
        row(
          `opening: position polls vs bare node:http (${fmt(o.waiting)} waiting)`,
          `${fmt(middle.shop.requestsPerSecond)} vs ${fmt(middle.bare.requestsPerSecond)} req/s (${fmt(middle.ratio, 2)}; runs ${o.poll.map((p) => fmt(p.ratio, 2)).join(', ')})${errors ? `, ${errors} errors` : ''}`,
          `≥ ${GOALS.ratioOfBare} of bare`,
          middle.ratio >= GOALS.ratioOfBare && errors === 0,
        );
        const p99 = middleOf(
          o.poll.map((p) => p.shop.p99Ms),
          (v) => v,
        )!;
        row(
          'opening: position poll p99',
          `${fmt(p99)} ms`,
          `< ${GOALS.productsP99Ms} ms`,
          p99 < GOALS.productsP99Ms,
        );
        row(
          `opening: memory of one process with ${fmt(o.waiting)} waiting`,
          `${fmt(o.rssWithWaitingMB)} MB RSS`,
          '< 300 MB',
          o.rssWithWaitingMB < 300,
        );
        const one = await paidRegistrations([shop], o.tokens);
        openingPaidRows(one);
        // A second process on the same database (the same signing secret, as behind a balancer).
        const second = await startShop('postgres', { ...openingEnv, DATABASE_URL: shop.databaseUrl! });
        try {
          const two = await paidRegistrations([shop, second], o.tokens);
          openingPaidRows(two);
          row(
            'opening: two processes over one',
            `×${fmt(two.paidPerSecond / Math.max(one.paidPerSecond, 0.001), 2)} paid registrations/s`,
          );
        } finally {
          await second.stop();
        }
      },
      openingEnv,
    );
  }
  if (only.has('desk')) {
    const secret = randomBytes(32).toString('base64url');
    await withShop(
      'postgres',
      async (shop) => {
        const d = await deskFigures(shop, secret);
        row(
          `desk: snapshot of ${fmt(d.runners)} runners, downloaded and indexed`,
          `${fmt(d.snapshotMs)} ms, ${fmt(d.snapshotKB)} KB; again with its ETag (304) ${fmt(d.notModifiedMs)} ms`,
        );
        row(
          `desk: its page opened and the ${fmt(d.runners)} runners stored on a phone (CPU ×4, slow 4G)`,
          `${fmt(d.phoneMs / 1000, 1)} s`,
        );
        row(
          `desk: scans decided offline (${fmt(d.scans)}, half forged)`,
          `${fmt(d.scansPerSecond)}/s`,
          'each code right',
          d.correct,
        );
      },
      { CHECKIN_TOKEN_SECRET: secret },
    );
  }
  if (only.has('results')) {
    await withShop('postgres', async (shop) => {
      const setup = await setUpResults(shop);
      row(
        `results: ${fmt(Number(process.env.BENCH_RESULTS_RUNNERS ?? 20_000))} finishers published (setup)`,
        `${fmt(setup.setupMs)} ms`,
      );
      // The first answer of each is built from the database (then kept until the next publication).
      for (const [route, label] of [
        [`/api/events/${setup.eventId}/resultados/?page=100`, 'results page'],
        [`/api/events/${setup.eventId}/resultados/${setup.bib}/`, "a runner's page"],
      ] as const) {
        const started = performance.now();
        const res = await fetch(`${shop.baseURL}${route}`);
        await res.arrayBuffer();
        row(
          `results: ${label} built on its first request (${res.status})`,
          `${fmt(performance.now() - started)} ms`,
        );
      }
      await versusBare(shop, `/api/events/${setup.eventId}/resultados/?page=100`, 'results page', true);
      await versusBare(
        shop,
        `/api/events/${setup.eventId}/resultados/${setup.bib}/`,
        "a runner's page",
        true,
      );
      const r = await resultsFigures(shop, setup);
      row(
        `results: a ${fmt(r.importLines)}-line timer file read and published`,
        `${fmt(r.previewMs + r.publishMs)} ms (preview ${fmt(r.previewMs)}, publication ${fmt(r.publishMs)})`,
        `< ${fmt(GOALS.resultsImportMs)} ms`,
        r.previewMs + r.publishMs < GOALS.resultsImportMs,
      );
      row(
        `results: ${fmt(r.certificates)} certificates e-mailed by the job queue`,
        `${fmt(r.drainMs / 1000, 1)} s (${fmt((r.certificates * 1000) / r.drainMs, 1)}/s)`,
        'every one sent',
        r.certificates >= r.importLines,
      );
      row(
        `  storefront GET /api/products/ p99 meanwhile (${process.env.BENCH_RESULTS_STOREFRONT_RATE ?? 50} req/s)`,
        `${fmt(r.storefrontP99Ms)} ms${r.storefrontErrors ? `, ${r.storefrontErrors} errors` : ''}`,
        `< ${GOALS.productsP99Ms} ms`,
        r.storefrontP99Ms < GOALS.productsP99Ms && r.storefrontErrors === 0,
      );
    });
  }
  if (only.has('growth')) {
    await withShop('postgres', (shop) => growthFigures(shop), BUYERS_FROM_ONE_ADDRESS);
  }

  console.table(
    rows.map((r) => ({ medida: r.figure, valor: r.value, meta: r.goal, ok: r.ok ? 'sim' : 'NÃO' })),
  );
  const missed = rows.filter((r) => !r.ok);
  if (missed.length) console.error(`Metas não atingidas: ${missed.map((r) => r.figure.trim()).join('; ')}`);
  return missed.length ? 1 : 0;
}

process.exitCode = await main();
