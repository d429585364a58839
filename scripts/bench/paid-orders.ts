import http from 'node:http';
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
export async function backendsCpu(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

/**
 * One JSON call over a kept-alive connection. node:http rather than fetch: fetch cost this client about
 * 2 ms of CPU per call on the bench machine, CPU the shop and PostgreSQL then lacked on the same cores.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function call(
  shop: Shop,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<Record<string, unknown>> {
  const method = init.method ?? 'POST';
  const body = init.body !== undefined ? JSON.stringify(init.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${shop.baseURL}${path}`,
      {
        method,
        agent,
        headers: {
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
            : {}),
          ...(init.token ? { authorization: `Token ${init.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            reject(new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`));
            return;
          }
          try {
            resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Buyer {
  token: string;
  draft: OrderDraft;
  total: number;
}

/** A signed-up buyer with one address and a one-item cart, as the browser would make them. */
async function makeBuyer(shop: Shop, index: number, product: Product, tag: string): Promise<Buyer> {
  const username = `bench${tag}${index}`;
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
 * The yardstick of the paid-orders figure: how many of the smallest statements (`select $1`) one Node
 * process gets through per second on this machine, from a pool of the shop's size, for `seconds`. Every
 * statement of a purchase costs at least this round trip, so this rate divided by the statements of a
 * purchase is a ceiling no shop code can pass on the same machine.
 */
export async function roundTripsPerSecond(
  databaseUrl: string,
  seconds = 5,
  connections = 10,
): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  let count = 0;
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, i) => {
      while (Date.now() < until) {
        await pool.query('select $1::int', [i]);
        count++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.end();
  return count / elapsed;
}

/**
 * Paid orders per second on PostgreSQL: BUYERS buyers each buy in a loop for LOAD.seconds, every
 * purchase being the browser's three calls (Pix charge, the simulated bank paying it, the order).
 * `tag` names the buyers' accounts, so one shop can be measured more than once.
 */
export async function paidOrders(shop: Shop, tag = ''): Promise<PaidOrdersResult> {
  if (!shop.databaseUrl) throw new Error('paid orders are measured on PostgreSQL');
  // Enough units that the run measures buying, not running out of stock.
  const client = new pg.Client({ connectionString: shop.databaseUrl });
  await client.connect();
  await client.query('update stock set quantity = 1000000');

  const products = (await call(shop, '/api/products/', { method: 'GET' })) as unknown as Product[];
  // Each buyer buys a different product, as a day of sales looks (not everyone after one item).
  const stocked = products.filter((p) => p.stock.length > 0);
  const buyers: Buyer[] = [];
  for (let i = 0; i < BUYERS; i++) buyers.push(await makeBuyer(shop, i, stocked[i % stocked.length]!, tag));

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
