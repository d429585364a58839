import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../test/factories/catalog.ts';
import { makeEvent } from '../test/factories/events.ts';
import {
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  postOrder,
} from '../test/factories/orders.ts';
import { createStaffAndLogin } from '../test/factories/painel.ts';
import { simulatePixPaid } from '../test/factories/payments.ts';
import { CPF, participant, registrationPix } from '../test/factories/registrations.ts';
import { createEmptyPostgresDatabase, createTestApp, type TestApp } from '../test/test-app.ts';
import { openDatabase } from './client.ts';

/**
 * A purchase must not get slower with every order ever sold (docs/performance.md, "Cost that does not
 * grow with the data"). This file walks the purchase, registration and back-office list paths through
 * the HTTP layer on PostgreSQL, records every statement the shop sends, and asks PostgreSQL for each
 * one's plan with sequential scans priced out of reach (`enable_seqscan = off`): a statement that still
 * reads a whole table that grows with sales has no index to serve it, whatever the table's size today.
 */

/** Tables whose size is the shop's catalogue and settings, not its sales: reading them whole is fine. */
const FIXED_SIZE = new Set([
  'products',
  'product_images',
  'colors',
  'sizes',
  'stock',
  'events',
  'event_days',
  'event_categories',
  'event_kit_sizes',
  'category_lots',
  // One row per event that has an opening; every process reads them all on a timer (decision 0046).
  'event_openings',
  'coupons',
  'staff',
  'staff_sessions',
  'staff_recovery_codes',
  'staff_login_throttle',
  'store_settings',
  '__drizzle_migrations',
]);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** Each index's table and first column, read from the catalogue. */
type Indexes = Map<string, { table: string; leading: string }>;

/**
 * Where a plan reads a growing table whole: a sequential scan, an index walked from end to end
 * under a filter (what the planner picks instead of a sequential scan priced out of reach), or an
 * index whose condition leaves out its first column (a condition on later columns of a B-tree still
 * walks all of it). An index walked in order under a LIMIT (a page of a list) reads only the page.
 */
function wholeTableReads(node: PlanNode, indexes: Indexes, underLimit = false): string[] {
  const found: string[] = [];
  const type = node['Node Type'];
  const index = node['Index Name'] ? indexes.get(node['Index Name']) : undefined;
  const table = node['Relation Name'] ?? index?.table;
  if (table && !FIXED_SIZE.has(table)) {
    const cond = node['Index Cond'];
    if (type === 'Seq Scan') found.push(`${table}: Seq Scan`);
    else if (/^Index (Only )?Scan$/.test(type) && !cond && !underLimit && node.Filter)
      found.push(`${table}: whole index ${node['Index Name']} filtered by ${node.Filter}`);
    else if (cond && index && !new RegExp(`\\b${index.leading}\\b`).test(cond))
      found.push(
        `${table}: whole index ${node['Index Name']} (its first column ${index.leading} is not in ${cond})`,
      );
  }
  const limit = underLimit || type === 'Limit';
  for (const child of node.Plans ?? []) found.push(...wholeTableReads(child, indexes, limit));
  return found;
}

interface Statement {
  text: string;
  values: unknown[];
}

describe('no statement of a purchase, a registration or a back-office list reads a table that grows with sales', () => {
  let t: TestApp;
  let dropDatabase: () => Promise<void>;
  let databaseUrl: string;
  const seen = new Map<string, Statement>();
  const originalQuery = pg.Client.prototype.query;

  beforeAll(async () => {
    const empty = await createEmptyPostgresDatabase();
    dropDatabase = empty.drop;
    databaseUrl = empty.url;
    const database = await openDatabase({ url: empty.url });
    await database.migrate();
    t = await createTestApp({ database, now: () => new Date('2026-11-23T12:00:00Z') });
    // Every statement from here on, as the pool's clients send it (text and parameters).
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first, second] = args as [unknown, unknown];
      const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      const values =
        (Array.isArray(second) ? second : (first as { values?: unknown[] } | undefined)?.values) ?? [];
      if (text && /^\s*(select|insert|update|delete|with)\b/i.test(text) && !seen.has(text))
        seen.set(text, { text, values });
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = originalQuery;
    await t.close();
    await dropDatabase();
  });

  it('walks the paths, then finds an index behind every statement', async () => {
    const { app } = t;
    // A purchase paid by Pix, read back by the buyer.
    const product = await makeProduct(app.db, { stock: [{ color: 'Azul', size: 'M', quantity: 20 }] });
    const buyer = await makeBuyer(app);
    const draft = orderDraft(buyer, [{ product }]);
    const pix = await createOrderPix(
      app,
      buyer.headers,
      draft,
      await draftTotalCents(app, buyer.zipCode, draft, [product]),
    );
    expect(pix.statusCode).toBe(201);
    const { txid } = pix.json<{ txid: string }>();
    expect((await simulatePixPaid(app, txid)).statusCode).toBe(200);
    const order = await postOrder(app, buyer.headers, txid);
    expect(order.statusCode).toBe(201);
    const orderId = order.json<{ id: number }>().id;
    expect(
      (await app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })).statusCode,
    ).toBe(200);

    // A registration paid by Pix, then found by CPF.
    const event = await makeEvent(app.db, { today: '2026-11-23' });
    const category = event.days[0]!.categories[0]!;
    const entry = participant(event, [category.id]);
    const regPix = await registrationPix(app, entry, category.priceCents / 100, buyer.headers);
    expect(regPix.statusCode).toBe(201);
    const regTxid = regPix.json<{ txid: string }>().txid;
    expect((await simulatePixPaid(app, regTxid)).statusCode).toBe(200);
    const registered = await app.inject({
      method: 'POST',
      url: '/api/participantes/cadastrar/',
      headers: buyer.headers,
      payload: { txid: regTxid, ...entry },
    });
    expect(registered.statusCode).toBe(201);
    const lookup = await app.inject({
      method: 'GET',
      url: `/api/participantes/cpf/${CPF}/`,
      headers: buyer.headers,
    });
    expect(lookup.statusCode).toBe(200);
    // "Minhas inscrições": the list in a few statements (categories, histories, events at once), and the
    // ticket the card asks for.
    const mine = await app.inject({ method: 'GET', url: '/api/inscricoes/', headers: buyer.headers });
    expect(mine.statusCode).toBe(200);
    const ticket = await app.inject({
      method: 'GET',
      url: `/api/inscricoes/${mine.json<Array<{ id: number }>>()[0]!.id}/qr-code/`,
      headers: buyer.headers,
    });
    expect(ticket.statusCode).toBe(200);

    // An event that opens through a waiting room: the runner joins a minute after the opening, is
    // admitted at once, and the prepare step's gate counts the event's registrations of the CPF and of
    // the buyer, paid or being paid.
    const admin = await createStaffAndLogin(app);
    const opening = await makeEvent(app.db, { today: '2026-11-23', name: 'Corrida da Abertura dos Planos' });
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/painel/events/${opening.id}/abertura/`,
      headers: admin.headers,
      payload: {
        modo: 'fila',
        abre_em: '2026-11-23T11:59:00Z',
        pre_fila_minutos: 30,
        admitidos_por_minuto: 100,
        minutos_da_vez: 10,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 2,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The save's notification reaches this process's copy of the openings a moment after the commit.
    await expect
      .poll(
        async () =>
          (
            await app.inject({
              method: 'POST',
              url: `/api/events/${opening.id}/fila/`,
              headers: buyer.headers,
            })
          ).statusCode,
      )
      .toBe(200);
    const openingCategory = opening.days[0]!.categories[0]!;
    const admitted = await registrationPix(
      app,
      participant(opening, [openingCategory.id]),
      openingCategory.priceCents / 100,
      buyer.headers,
    );
    expect(admitted.statusCode, admitted.body).toBe(201);

    // The back office's lists and the pages they open.
    for (const url of [
      '/api/painel/orders/',
      '/api/painel/orders/?status=pago',
      `/api/painel/orders/${orderId}/`,
      `/api/painel/events/${event.id}/participants/`,
      `/api/painel/events/${event.id}/participants.csv`,
      `/api/painel/checkin/search/?evento=${event.id}&busca=Maria`,
      `/api/painel/stock/history/?product_id=${product.id}&color_id=${product.stock[0]!.colorId}&size_id=${product.stock[0]!.sizeId}`,
      '/api/painel/audit/',
      // The dashboard and the event's report sum every paid charge of a period or an event.
      '/api/painel/dashboard/',
      '/api/painel/relatorios/eventos/',
      `/api/painel/relatorios/eventos/${event.id}/`,
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: admin.headers });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    }

    pg.Client.prototype.query = originalQuery;
    expect(seen.size).toBeGreaterThan(30);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const problems: string[] = [];
    try {
      await client.query('set enable_seqscan = off');
      const { rows: indexRows } = await client.query<{ index: string; table: string; leading: string }>(
        `select ci.relname as index, ct.relname as table, a.attname as leading
           from pg_index i
           join pg_class ci on ci.oid = i.indexrelid
           join pg_class ct on ct.oid = i.indrelid
           join pg_namespace n on n.oid = ct.relnamespace and n.nspname = 'public'
           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]`,
      );
      const indexes: Indexes = new Map(indexRows.map((r) => [r.index, r]));
      for (const { text, values } of seen.values()) {
        const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `explain (format json) ${text}`,
          values,
        );
        const reads = wholeTableReads(rows[0]!['QUERY PLAN'][0]!.Plan, indexes);
        if (reads.length)
          problems.push(`${reads.join('; ')}\n    in: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
      }
    } finally {
      await client.end();
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
