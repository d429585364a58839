/**
 * The bench's `opening` part (docs/decisions/0046-opening-day.md), on PostgreSQL: `BENCH_RUNNERS`
 * (200) signed-up runners join an event's waiting room in one burst (joins per second, p99 of a
 * join), then the room is made to hold `BENCH_WAITING` (100,000) arrivals, all in the pre-queue, and
 * the position poll the page sends every few seconds is loaded against a bare node:http server sending
 * the same bytes (ratio, p99), while the server's memory is read.
 */
import pg from 'pg';
import { LOAD, type LoadResult, load, startBare, warmUp } from './http-load.ts';
import { rssMB, type Shop } from './shop.ts';

const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 200);
const WAITING = Number(process.env.BENCH_WAITING ?? 100_000);

async function call(
  shop: Shop,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
) {
  const res = await fetch(`${shop.baseURL}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Token ${init.token}` } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : null,
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export interface OpeningFigures {
  runners: number;
  joinsPerSecond: number;
  joinP99Ms: number;
  distinctArrivals: number;
  waiting: number;
  poll: { shop: LoadResult; bare: LoadResult; ratio: number }[];
  rssWithWaitingMB: number;
}

export async function openingFigures(shop: Shop): Promise<OpeningFigures> {
  const staff = (await call(shop, '/api/painel/auth/login/', {
    body: { email: 'gerente@passada.com.br', password: 'painel-demo-2026' },
  })) as { token: string };
  const events = (await (await fetch(`${shop.baseURL}/api/events/`)).json()) as Array<{
    id: number;
    inscricoes_abertas: boolean;
  }>;
  const source = events.find((e) => e.inscricoes_abertas)!;
  const copy = (await call(shop, `/api/painel/events/${source.id}/duplicar/`, { token: staff.token })) as {
    id: number;
  };
  await call(shop, `/api/painel/events/${copy.id}/abertura/`, {
    method: 'PUT',
    token: staff.token,
    body: {
      modo: 'fila',
      abre_em: new Date(Date.now() + 10 * 60_000).toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 500,
      minutos_da_vez: 10,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 1,
    },
  });

  const tokens: string[] = [];
  for (let i = 0; i < RUNNERS; i++) {
    const username = `fila${Date.now().toString(36)}${i}`;
    const password = 'passada-bench-senha';
    await call(shop, '/api/users/', {
      body: { username, email: `${username}@example.com`, full_name: `Corredor Fila ${i}`, password },
    });
    tokens.push(
      ((await call(shop, '/api/token-auth/', { body: { username, password } })) as { token: string }).token,
    );
  }

  // The burst: every runner joins at once.
  const latencies: number[] = [];
  const started = performance.now();
  const tickets = await Promise.all(
    tokens.map(async (token) => {
      const t0 = performance.now();
      const ticket = (await call(shop, `/api/events/${copy.id}/fila/`, { token })) as { vez: string };
      latencies.push(performance.now() - t0);
      return ticket.vez;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const distinctArrivals = new Set(tickets.map((v) => v.split('.')[2])).size;

  // The room now holds WAITING arrivals, all drawn in the pre-queue at an opening a second ago.
  const client = new pg.Client({ connectionString: shop.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update event_openings set opens_at = now() - interval '1 second', arrivals = $2, pre_queue_size = $2,
         base_at = null, base_admitted = 0 where event_id = $1`,
      [copy.id, WAITING],
    );
  } finally {
    await client.end();
  }
  await new Promise((r) => setTimeout(r, 3000));

  const url = `${shop.baseURL}/api/events/${copy.id}/fila/?vez=${encodeURIComponent(tickets[0]!)}`;
  const bare = await startBare(url);
  const poll: OpeningFigures['poll'] = [];
  try {
    await warmUp(bare.url);
    await warmUp(url);
    for (let round = 0; round < LOAD.rounds; round++) {
      const bareRun = await load(bare.url);
      const shopRun = await load(url, shop.pid);
      poll.push({
        shop: shopRun,
        bare: bareRun,
        ratio: shopRun.requestsPerSecond / bareRun.requestsPerSecond,
      });
    }
  } finally {
    bare.stop();
  }
  return {
    runners: RUNNERS,
    joinsPerSecond: RUNNERS / seconds,
    joinP99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0,
    distinctArrivals,
    waiting: WAITING,
    poll,
    rssWithWaitingMB: Math.max(rssMB(shop.pid), ...poll.map((p) => p.shop.peakRssMB ?? 0)),
  };
}
