import type { Product } from '@passada/core/contracts/catalog';
import type { OrderDraft } from '@passada/core/contracts/orders';
import { commaStringToCents } from '@passada/core/money';
import pg from 'pg';
import { makeAddress } from '../../apps/api/src/test/factories/accounts.ts';
import { LOAD } from './http-load.ts';
import { cpuMs, type Shop } from './shop.ts';

const BUYERS = Number(process.env.BENCH_BUYERS ?? 25);

export interface PaidOrdersResult {
  ordersPerSecond: number;
  /** Of one whole purchase: charge, simulated payment and order, one after the other. */
  p99Ms: number;
  failures: number;
  firstFailure?: string;
  /**
   * CPU time per paid order, in ms, of the shop's process, of the PostgreSQL backends serving its
   * database and of this client: where the machine's cores went.
   */
  cpuPerOrderMs: { server: number; postgres: number; client: number };
}

/** CPU used so far by each PostgreSQL backend connected to `database` (they run on this machine). */
async function backendsCpu(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

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
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'POST'} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

interface Buyer {
  token: string;
  draft: OrderDraft;
  total: number;
}

/** A signed-up buyer with one address and a one-item cart, as the browser would make them. */
async function makeBuyer(shop: Shop, index: number, product: Product): Promise<Buyer> {
  const username = `bench${index}`;
  const password = 'passada-bench-senha';
  await call(shop, '/api/users/', {
    body: { username, email: `${username}@example.com`, full_name: `Corredor Bench ${index}`, password },
  });
  const { token } = (await call(shop, '/api/token-auth/', { body: { username, password } })) as {
    token: string;
  };
  const address = (await call(shop, '/api/users/addresses/', {
    token,
    body: makeAddress({ is_primary: true }),
  })) as { id: number };
  const line = product.stock[index % product.stock.length]!;
  const draft: OrderDraft = {
    items: [
      {
        product: product.id,
        quantity: 1,
        color: line.color.id,
        size: line.size.id,
        product_name: product.name,
        product_price: product.price,
        product_size: line.size.name,
        product_color: line.color.name,
      },
    ],
    address_id: address.id,
    frete: 'PAC',
    metodo_pagamento: 'pix',
  };
  const quote = (await call(shop, '/api/calcular-frete/', {
    body: { cepDestino: '60165121', items: [{ product: product.id, quantity: 1 }] },
  })) as { precoFinalPAC: string };
  const total = (Math.round(product.price * 100) + commaStringToCents(quote.precoFinalPAC)) / 100;
  return { token, draft, total };
}

/**
 * Paid orders per second on PostgreSQL: BUYERS buyers each buy in a loop for LOAD.seconds, every
 * purchase being the browser's three calls (Pix charge, the simulated bank paying it, the order).
 */
export async function paidOrders(shop: Shop): Promise<PaidOrdersResult> {
  if (!shop.databaseUrl) throw new Error('paid orders are measured on PostgreSQL');
  // Enough units that the run measures buying, not running out of stock.
  const client = new pg.Client({ connectionString: shop.databaseUrl });
  await client.connect();
  await client.query('update stock set quantity = 1000000');

  const products = (await (await fetch(`${shop.baseURL}/api/products/`)).json()) as Product[];
  // Each buyer buys a different product, as a day of sales looks (not everyone after one item).
  const stocked = products.filter((p) => p.stock.length > 0);
  const buyers: Buyer[] = [];
  for (let i = 0; i < BUYERS; i++) buyers.push(await makeBuyer(shop, i, stocked[i % stocked.length]!));

  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  const buyOnce = async (buyer: Buyer) => {
    const started = performance.now();
    const charge = (await call(shop, '/api/pagar-pix/', {
      token: buyer.token,
      body: { total: buyer.total, finalidade: 'pedido', pedido: buyer.draft },
    })) as { txid: string };
    await call(shop, `/api/simulador/pix/${charge.txid}/pagar`);
    await call(shop, '/api/orders/', {
      token: buyer.token,
      body: {
        txid: charge.txid,
        order_date: new Date().toISOString(),
        metodo_pagamento: 'pix',
        items: [],
        frete: 0,
      },
    });
    return performance.now() - started;
  };
  const until = Date.now() + LOAD.seconds * 1000;
  const cpuBefore = {
    server: cpuMs(shop.pid),
    postgres: await backendsCpu(client),
    client: process.cpuUsage(),
  };
  const started = performance.now();
  await Promise.all(
    buyers.map(async (buyer) => {
      while (Date.now() < until) {
        try {
          latencies.push(await buyOnce(buyer));
        } catch (error) {
          failures++;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const postgresAfter = await backendsCpu(client);
  await client.end();
  let postgresMs = 0;
  for (const [pid, ms] of postgresAfter) postgresMs += ms - (cpuBefore.postgres.get(pid) ?? 0);
  const clientUsage = process.cpuUsage(cpuBefore.client);
  const orders = Math.max(latencies.length, 1);
  latencies.sort((a, b) => a - b);
  return {
    cpuPerOrderMs: {
      server: (cpuMs(shop.pid) - cpuBefore.server) / orders,
      postgres: postgresMs / orders,
      client: (clientUsage.user + clientUsage.system) / 1000 / orders,
    },
    ordersPerSecond: latencies.length / elapsed,
    p99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? Number.NaN,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
  };
}
