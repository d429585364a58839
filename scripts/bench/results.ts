/**
 * The bench's `results` part (docs/decisions/0064), on PostgreSQL: an event of BENCH_RESULTS_RUNNERS
 * (20,000) runners with bibs 1…N, written in SQL, and their results published from a timer's file. It
 * measures a BENCH_RESULTS_IMPORT (5,000) line file read and published through the back office's API;
 * answers the results page and a runner's page for the comparison with the bare server (the caller's);
 * and the certificates that publication queues, one per changed finisher, sent by the job queue while
 * the storefront is asked for its products: how long the queue takes and the storefront's p99 meanwhile.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { insertBenchRunners } from './bench-runners.ts';
import type { Shop } from './shop.ts';

const RUNNERS = Number(process.env.BENCH_RESULTS_RUNNERS ?? 20_000);
const IMPORT_LINES = Number(process.env.BENCH_RESULTS_IMPORT ?? 5_000);
/** Requests a second the storefront is asked while the certificates are sent. */
const STOREFRONT_RATE = Number(process.env.BENCH_RESULTS_STOREFRONT_RATE ?? 50);
/** The bench's bibs start here, clear of any the demo data gave. */
const BIB_BASE = 100_000;

/** A timer's file: bibs `from`…`to`, gun times from 40 minutes, one second apart (+`shift` seconds). */
function timerFile(from: number, to: number, shift = 0): string {
  const lines = ['Peito;Bruto;Liquido'];
  for (let n = from; n <= to; n++) {
    const s = 2400 + n + shift;
    const t = (x: number) =>
      `${Math.floor(x / 3600)}:${String(Math.floor((x % 3600) / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`;
    lines.push(`${BIB_BASE + n};${t(s)};${t(s - 20)}`);
  }
  return lines.join('\n');
}

async function queued(client: pg.Client): Promise<number> {
  const { rows } = await client.query(
    `select count(*)::int as n from pgboss.job where name = 'mail.result-certificate' and state in ('created', 'retry', 'active')`,
  );
  return (rows[0] as { n: number }).n;
}

export interface ResultsSetup {
  eventId: number;
  bib: number;
  /** The whole file's publication (setup, not a goal). */
  setupMs: number;
}

export interface ResultsFigures {
  importLines: number;
  previewMs: number;
  publishMs: number;
  certificates: number;
  drainMs: number;
  storefrontP99Ms: number;
  storefrontErrors: number;
}

async function staffHeaders(shop: Shop) {
  const login = await fetch(`${shop.baseURL}/api/painel/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@passada.com.br', password: 'painel-demo-2026' }),
  });
  return {
    authorization: `Token ${((await login.json()) as { token: string }).token}`,
    'content-type': 'application/json',
  };
}

async function importAndPublish(shop: Shop, eventId: number, timer: number, file: string) {
  const headers = await staffHeaders(shop);
  let started = performance.now();
  const preview = await fetch(`${shop.baseURL}/api/painel/events/${eventId}/resultados/importacoes/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ cronometragem: timer, conteudo: file, nome_arquivo: 'bancada.csv' }),
  });
  if (preview.status !== 201) throw new Error(`prévia: ${preview.status} ${await preview.text()}`);
  const { id } = (await preview.json()) as { id: number };
  const previewMs = performance.now() - started;
  started = performance.now();
  const published = await fetch(
    `${shop.baseURL}/api/painel/events/${eventId}/resultados/importacoes/${id}/publicar/`,
    { method: 'POST', headers, body: '{}' },
  );
  if (published.status !== 200) throw new Error(`publicação: ${published.status} ${await published.text()}`);
  return { previewMs, publishMs: performance.now() - started };
}

/** The event of RUNNERS finishers, published, its setup's certificates taken off the queue. */
export async function setUpResults(shop: Shop): Promise<ResultsSetup & { timer: number }> {
  const client = new pg.Client({ connectionString: shop.databaseUrl! });
  await client.connect();
  try {
    await client.query('begin');
    const { eventId } = await insertBenchRunners(client, RUNNERS, {
      prefix: 'Corredora dos Resultados',
      bibSql: `${BIB_BASE} + row_number() over (order by made.id)`,
      teamSql: "case when ch.id % 4 = 0 then 'Equipe da Bancada' end",
    });
    await client.query('commit');
    await client.query('analyze');
    const timer = await fetch(`${shop.baseURL}/api/painel/cronometragens/`, {
      method: 'POST',
      headers: await staffHeaders(shop),
      body: JSON.stringify({
        nome: 'Cronometragem da bancada',
        colunas: { numero: 'Peito', tempo_bruto: 'Bruto', tempo_liquido: 'Liquido', situacao: null },
      }),
    });
    const timerId = ((await timer.json()) as { id: number }).id;
    const started = performance.now();
    await importAndPublish(shop, eventId, timerId, timerFile(1, RUNNERS));
    const setupMs = performance.now() - started;
    // The setup's own e-mails are not what is measured: only the publication below sends.
    await client.query(`delete from pgboss.job where name = 'mail.result-certificate'`);
    return { eventId, bib: BIB_BASE + Math.ceil(RUNNERS / 2), setupMs, timer: timerId };
  } finally {
    await client.end();
  }
}

/**
 * A file of IMPORT_LINES corrected times read and published (every one a changed result, so a
 * certificate e-mail each), then the storefront's products asked while the queue sends them.
 */
export async function resultsFigures(
  shop: Shop,
  setup: { eventId: number; timer: number },
): Promise<ResultsFigures> {
  const client = new pg.Client({ connectionString: shop.databaseUrl! });
  await client.connect();
  try {
    const { previewMs, publishMs } = await importAndPublish(
      shop,
      setup.eventId,
      setup.timer,
      timerFile(1, IMPORT_LINES, 7),
    );
    // Bibs queued (a job carries up to 25).
    const certificates = (
      (
        await client.query(
          `select coalesce(sum(jsonb_array_length(data->'bibs')), 0)::int as n from pgboss.job
            where name = 'mail.result-certificate' and state in ('created', 'retry', 'active')`,
        )
      ).rows[0] as { n: number }
    ).n;
    const started = performance.now();
    // Shoppers at a steady STOREFRONT_RATE requests a second (not as fast as the client can send, which
    // would measure a saturated process, not the queue's effect on it).
    const storefront = autocannon({
      url: `${shop.baseURL}/api/products/`,
      connections: 10,
      overallRate: STOREFRONT_RATE,
      duration: 3600,
    });
    while ((await queued(client)) > 0) await new Promise((r) => setTimeout(r, 250));
    const drainMs = performance.now() - started;
    storefront.stop();
    const run = await storefront;
    return {
      importLines: IMPORT_LINES,
      previewMs,
      publishMs,
      certificates,
      drainMs,
      storefrontP99Ms: run.latency.p99,
      storefrontErrors: run.errors + run.timeouts + run.non2xx,
    };
  } finally {
    await client.end();
  }
}
