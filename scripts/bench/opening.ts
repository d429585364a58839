/**
 * The bench's `opening` part (docs/decisions/0046-opening-day.md), on PostgreSQL: `BENCH_RUNNERS`
 * (200) signed-up runners join an event's waiting room in one burst (joins per second, p99 of a
 * join), then the room is made to hold `BENCH_WAITING` (100,000) arrivals, all in the pre-queue, and
 * the position poll the page sends every few seconds is loaded against a bare node:http server sending
 * the same bytes (ratio, p99), while the server's memory is read.
 */
import { isValidCpf } from '@passada/core/documents';
import pg from 'pg';
import { alternatingRuns, type BareRound, startBare } from './http-load.ts';
import { backendsCpu, call } from './paid-orders.ts';
import { cpuMs, rssMB, type Shop } from './shop.ts';

const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 200);
const WAITING = Number(process.env.BENCH_WAITING ?? 100_000);

async function fetchJson(
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
  /** CPU per join, ms: the shop's process and the PostgreSQL backends (sign-in, address limit, join). */
  joinCpuMs: { server: number; postgres: number };
  distinctArrivals: number;
  waiting: number;
  poll: BareRound[];
  rssWithWaitingMB: number;
  /** The runners' login tokens, for the paid registrations that follow. */
  tokens: string[];
}

export async function openingFigures(shop: Shop): Promise<OpeningFigures> {
  const staff = (await fetchJson(shop, '/api/painel/auth/login/', {
    body: { email: 'gerente@passada.com.br', password: 'painel-demo-2026' },
  })) as { token: string };
  const events = (await (await fetch(`${shop.baseURL}/api/events/`)).json()) as Array<{
    id: number;
    inscricoes_abertas: boolean;
  }>;
  const source = events.find((e) => e.inscricoes_abertas)!;
  const copy = (await fetchJson(shop, `/api/painel/events/${source.id}/duplicar/`, {
    token: staff.token,
  })) as {
    id: number;
  };
  await fetchJson(shop, `/api/painel/events/${copy.id}/abertura/`, {
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

  // The runners sign up and sign in a few at a time (each is a password hash), before the burst.
  const tokens: string[] = Array(RUNNERS).fill('');
  const prefix = `fila${Date.now().toString(36)}`;
  let next = 0;
  const signUp = async () => {
    for (let i = next++; i < RUNNERS; i = next++) {
      const username = `${prefix}${i}`;
      const password = 'passada-bench-senha';
      await fetchJson(shop, '/api/users/', {
        body: { username, email: `${username}@example.com`, full_name: `Corredor Fila ${i}`, password },
      });
      tokens[i] = (
        (await fetchJson(shop, '/api/token-auth/', { body: { username, password } })) as { token: string }
      ).token;
    }
  };
  await Promise.all(Array.from({ length: 4 }, signUp));

  // The burst: every runner joins at once. The CPU of the shop and of the PostgreSQL backends per join
  // is the figure to compare between builds on a shared machine (the rate follows the machine's load).
  const counting = new pg.Client({ connectionString: shop.databaseUrl });
  await counting.connect();
  const backendsBefore = await backendsCpu(counting);
  const serverBefore = cpuMs(shop.pid);
  const latencies: number[] = [];
  const started = performance.now();
  const tickets = await Promise.all(
    tokens.map(async (token) => {
      const t0 = performance.now();
      const ticket = (await fetchJson(shop, `/api/events/${copy.id}/fila/`, { token })) as { vez: string };
      latencies.push(performance.now() - t0);
      return ticket.vez;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const serverMs = cpuMs(shop.pid) - serverBefore;
  let postgresMs = 0;
  for (const [pid, ms] of await backendsCpu(counting)) postgresMs += ms - (backendsBefore.get(pid) ?? 0);
  await counting.end();
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
  const poll: OpeningFigures['poll'] = await alternatingRuns(url, await startBare(url), shop.pid);
  return {
    runners: RUNNERS,
    joinsPerSecond: RUNNERS / seconds,
    joinP99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0,
    joinCpuMs: { server: serverMs / RUNNERS, postgres: postgresMs / RUNNERS },
    distinctArrivals,
    waiting: WAITING,
    poll,
    rssWithWaitingMB: Math.max(rssMB(shop.pid), ...poll.map((p) => p.shop.peakRssMB ?? 0)),
    tokens,
  };
}

const CAPACITY = Number(process.env.BENCH_CAPACITY ?? 150);

/** A valid CPF from 9 base digits (core's own check). */
function cpfFrom(base: number): string {
  const head = String(base).padStart(9, '0');
  for (let d = 0; d < 100; d++) {
    const cpf = `${head}${String(d).padStart(2, '0')}`;
    if (isValidCpf(cpf)) return cpf;
  }
  throw new Error(`sem CPF para ${head}`);
}

export interface PaidRegistrationFigures {
  processes: number;
  runners: number;
  capacity: number;
  /** Registrations paid and confirmed per second, from the burst's start to its last purchase. */
  paidPerSecond: number;
  /** CPU per paid registration, ms: the shop processes, the PostgreSQL backends, this client. */
  cpuPerPaidMs: { server: number; postgres: number; client: number };
  /** Registrations standing for the event after the burst, and places its category still shows. */
  sold: number;
  placesLeft: number;
  /** Runners told there was no place left (409 at the payment step): the expected ending for some. */
  soldOut: number;
  failures: number;
  firstFailure?: string;
  /** Paid charges, and how many of them are neither a registration nor a refund (must be 0). */
  paidCharges: number;
  unaccounted: number;
}

/**
 * The opening's paid registrations: a copy of an open event whose first category has `CAPACITY` places
 * opens through a waiting room that admits everyone at once; the runners of `tokens` (more than the
 * places) join, poll their turn as the page does and register paying by Pix with the simulated bank,
 * split between `shops` (one process, or two on one database). Measures paid registrations per second
 * and the CPU of each, then checks in SQL that no more places were sold than there were and that every
 * paid charge became a registration or a refund.
 */
export async function paidRegistrations(shops: Shop[], tokens: string[]): Promise<PaidRegistrationFigures> {
  const [first] = shops;
  if (!first?.databaseUrl) throw new Error('paid registrations are measured on PostgreSQL');
  const staff = (await call(first, '/api/painel/auth/login/', {
    body: { email: 'gerente@passada.com.br', password: 'painel-demo-2026' },
  })) as { token: string };
  const events = (await (await fetch(`${first.baseURL}/api/events/`)).json()) as Array<{
    id: number;
    inscricoes_abertas: boolean;
  }>;
  const source = events.find((e) => e.inscricoes_abertas)!;
  const copy = (await call(first, `/api/painel/events/${source.id}/duplicar/`, { token: staff.token })) as {
    id: number;
  };
  const client = new pg.Client({ connectionString: first.databaseUrl });
  await client.connect();
  try {
    // One category with CAPACITY places at its own price (no lots), shirts for everyone; every
    // process drops its cached events on the notification.
    const { rows } = await client.query<{ id: number }>(
      `select c.id from event_categories c join event_days d on d.id = c.day_id where d.event_id = $1 order by c.id limit 1`,
      [copy.id],
    );
    const category = rows[0]!.id;
    await client.query('delete from category_lots where category_id = $1', [category]);
    await client.query('update event_categories set quantidade_disponivel = $2 where id = $1', [
      category,
      CAPACITY,
    ]);
    await client.query('update event_kit_sizes set quantidade_disponivel = 1000000 where event_id = $1', [
      copy.id,
    ]);
    await client.query(`select pg_notify('events_changed', '')`);
    await call(first, `/api/painel/events/${copy.id}/abertura/`, {
      method: 'PUT',
      token: staff.token,
      body: {
        modo: 'fila',
        abre_em: new Date(Date.now() - 60_000).toISOString(),
        pre_fila_minutos: 0,
        admitidos_por_minuto: 100_000,
        minutos_da_vez: 30,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 1,
      },
    });
    await new Promise((r) => setTimeout(r, 2000));
    const event = (await (await fetch(`${first.baseURL}/api/events/${copy.id}/`)).json()) as {
      dias_evento: Array<{ categorias: Array<{ id: number; preco_inscricao: number }> }>;
      kit: { tamanhos: Array<{ id: number }> };
      termo_versao: string;
    };
    const price = event.dias_evento
      .flatMap((d) => d.categorias)
      .find((c) => c.id === category)!.preco_inscricao;
    const shirt = event.kit.tamanhos[0]?.id;

    const backendsBefore = await backendsCpu(client);
    const serverBefore = shops.map((s) => cpuMs(s.pid));
    const clientBefore = process.cpuUsage();
    const startedAt = new Date();
    const started = performance.now();
    let paid = 0;
    let soldOut = 0;
    let failures = 0;
    let firstFailure: string | undefined;
    let lastPaid = started;
    await Promise.all(
      tokens.map(async (token, i) => {
        const shop = shops[i % shops.length]!;
        try {
          const ticket = (await call(shop, `/api/events/${copy.id}/fila/`, { token })) as { vez: string };
          let turn = (await call(shop, `/api/events/${copy.id}/fila/?vez=${encodeURIComponent(ticket.vez)}`, {
            method: 'GET',
          })) as { estado: string };
          while (turn.estado !== 'admitido') {
            await new Promise((r) => setTimeout(r, 500));
            turn = (await call(shop, `/api/events/${copy.id}/fila/?vez=${encodeURIComponent(ticket.vez)}`, {
              method: 'GET',
            })) as { estado: string };
          }
          const cpf = cpfFrom(731_000_000 + i);
          const draft = {
            nome_completo: `Corredora Abertura ${i}`,
            cpf,
            data_nascimento: '1990-05-10',
            genero: 'Feminino',
            numero_contato: '(85) 99999-9999',
            email: `abertura${i}@example.com`,
            evento: copy.id,
            categoria_evento: [category],
            street: 'Av. Beira Mar, 100',
            zip_code: '60165-121',
            state: 'CE',
            city: 'Fortaleza',
            neighborhood: 'Meireles',
            contato_emergencia_nome: 'João da Silva',
            contato_emergencia_telefone: '(85) 98888-7777',
            aceite_termo: true,
            termo_versao: event.termo_versao,
            ...(shirt ? { tamanho_camisa: shirt } : {}),
          };
          let charge: { txid: string };
          try {
            charge = (await call(shop, '/api/pagar-pix/', {
              token,
              body: { total: price, descricao: 'Inscrição', finalidade: 'inscricao', inscricao: draft },
            })) as { txid: string };
          } catch (error) {
            // No place left: the ending the runners past the capacity should get.
            if (error instanceof Error && / 409 /.test(error.message)) {
              soldOut++;
              return;
            }
            throw error;
          }
          await call(shop, `/api/simulador/pix/${charge.txid}/pagar`);
          await call(shop, '/api/participantes/cadastrar/', { token, body: { txid: charge.txid, ...draft } });
          paid++;
          lastPaid = performance.now();
        } catch (error) {
          failures++;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }),
    );
    const seconds = (lastPaid - started) / 1000;
    const backendsAfter = await backendsCpu(client);
    let postgresMs = 0;
    for (const [pid, ms] of backendsAfter) postgresMs += ms - (backendsBefore.get(pid) ?? 0);
    const serverMs = shops.reduce((sum, s, i) => sum + cpuMs(s.pid) - serverBefore[i]!, 0);
    const clientUsage = process.cpuUsage(clientBefore);
    const per = Math.max(paid, 1);

    const sold = Number(
      (
        await client.query<{ n: string }>(
          'select count(*) as n from registrations where event_id = $1 and cancelled_at is null',
          [copy.id],
        )
      ).rows[0]!.n,
    );
    const placesLeft = (
      await client.query<{ n: number }>(
        'select quantidade_disponivel as n from event_categories where id = $1',
        [category],
      )
    ).rows[0]!.n;
    const charges = (
      await client.query<{ paid: string; unaccounted: string }>(
        `select count(*) as paid,
           count(*) filter (where not exists (select 1 from registrations r where r.charge_id = c.id)
             and not exists (select 1 from charge_refunds f where f.charge_id = c.id)) as unaccounted
         from charges c where c.created_at >= $1 and c.paid_at is not null`,
        [startedAt],
      )
    ).rows[0]!;
    return {
      processes: shops.length,
      runners: tokens.length,
      capacity: CAPACITY,
      paidPerSecond: paid / Math.max(seconds, 0.001),
      cpuPerPaidMs: {
        server: serverMs / per,
        postgres: postgresMs / per,
        client: (clientUsage.user + clientUsage.system) / 1000 / per,
      },
      sold,
      placesLeft,
      soldOut,
      failures,
      ...(firstFailure ? { firstFailure } : {}),
      paidCharges: Number(charges.paid),
      unaccounted: Number(charges.unaccounted),
    };
  } finally {
    await client.end();
  }
}
