/**
 * "Money never lost" under a crash (docs/architecture.md §5): 200 buyers pay by Pix at once against the
 * real server process (`src/main.ts`) on PostgreSQL, with PAYMENTS=efi pointed at the strict fake Efí
 * running in this process. Once 40% of them were shown their order, the server is killed with SIGKILL
 * while charges wait for Efí's answer, every unit is held and a reconciliation run is under way; buyers'
 * requests in flight fail, buyers who pay meanwhile lose their webhook. The server is started again on
 * the same database. Then every order a buyer was shown exists with its line, every Pix the bank took is
 * exactly one order or one refund, stock + units sold = the starting stock, and once the Pix lifetime is
 * over at the bank no charge is left open.
 */

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AddressInputSchema } from '@passada/core/contracts/accounts';
import { commaStringToCents } from '@passada/core/money';
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.ts';
import { authTokens, chargeRefunds, charges, orderItems, orders, users } from '../db/schema/index.ts';
import { createAddressesService } from '../modules/accounts/addresses.service.ts';
import { createCatalogService } from '../modules/catalog/catalog.service.ts';
import { hashToken } from '../plugins/auth.ts';
import { makeAddress } from './factories/accounts.ts';
import { type MadeProduct, makeProduct } from './factories/catalog.ts';
import { type FakeDelivery, type FakeEfiAccount, startFakeEfiAccount } from './mocks/fake-efi.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { createEmptyPostgresDatabase, requirePostgres } from './test-app.ts';

requirePostgres();

const BUYERS = 200;
/** Fewer units than buyers: latecomers are told it is sold out, and the kill lands with none left. */
const UNITS = 150;
/** SIGKILL once this many buyers were answered 201 with their order (40% of them). */
const KILL_AFTER_ORDERS = 80;
/**
 * The first buyers reach "Pagar com Pix" within this long of each other; the others are still
 * reviewing their cart and press it once the 80th order was shown, so the kill meets charges being
 * created whatever the machine's speed (the first wave can hold at most 120 of the 150 units).
 */
const FIRST_WAVE = 120;
const ARRIVAL_SPREAD_MS = 4_000;
/** The kill waits until at least this many charges are between their creation and Efí's answer. */
const CAUGHT_IN_CREATION = 5;
/** How late the fake Efí answers each Pix creation (under EFI_TIMEOUT_MS below). */
const EFI_ANSWER_DELAY_MS = 1_500;
/** One buyer in this many never pays the Pix they asked for (those with i % 8 = 0). */
const ABANDON_EVERY = 8;
/** Those with i % 8 = 4 are slow with the bank app: they pay while the shop is down (webhook lost). */
const PAYS_DURING_OUTAGE = 4;
/** What the shop tells Efí its address is; deliveries are sent to whichever process is up. */
const PUBLIC_URL = 'https://loja.example';
const WEBHOOK_SECRET = 'segredo-do-webhook-no-teste-de-queda';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let empty: { url: string; drop(): Promise<void> };
let database: Database;
let efi: FakeEfiAccount;
let server: ServerProcess | null = null;
/** Stands in for the schedule's clock: only sends jobs (no workers, no cron, no maintenance). */
let clock: PgBoss;
const deliveries: Array<Promise<'entregue' | 'perdida'>> = [];

/** What Efí POSTs to the shop's public address lands on the process that is up, if any. */
function deliver(delivery: FakeDelivery) {
  const sent = (async () => {
    if (delivery.kind !== 'pix' || !server) return 'perdida' as const;
    const target = new URL(delivery.url);
    const local = new URL(server.url);
    target.protocol = local.protocol;
    target.host = local.host;
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(delivery.body),
      });
      return res.ok ? ('entregue' as const) : ('perdida' as const);
    } catch {
      // The process is down: this notification is lost (reconciliation must find the payment).
      return 'perdida' as const;
    }
  })();
  deliveries.push(sent);
}

function serverEnv(): Record<string, string> {
  return {
    ...efi.env,
    // The fake's certificate is self-signed: the child process trusts it as Node trusts any extra CA.
    NODE_EXTRA_CA_CERTS: path.join(efi.dir, 'server.crt'),
    PUBLIC_URL,
    EFI_WEBHOOK_ALLOWED_IPS: '127.0.0.1',
    EFI_TIMEOUT_MS: '3000',
    // Every buyer comes from 127.0.0.1: the per-IP and per-account caps would refuse most of them.
    PAYMENTS_RATE_LIMIT_PER_IP: '100000',
    PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '100000',
    PAYMENTS_MAX_OPEN_CHARGES: '100',
    SIGNUP_RATE_LIMIT_MAX: '100000',
    LOGIN_MAX_FAILURES_PER_IP: '100000',
    JOBS_POLL_SECONDS: '0.5',
  };
}

interface Buyer {
  id: number;
  headers: Record<string, string>;
  addressId: number;
}

/** 200 accounts with a live token and one address, written straight to the database (no argon2). */
async function seedBuyers(): Promise<Buyer[]> {
  const { db } = database;
  const tag = randomBytes(3).toString('hex');
  const made = await db
    .insert(users)
    .values(
      Array.from({ length: BUYERS }, (_, i) => ({
        username: `queda_${tag}_${i}`,
        email: `queda_${tag}_${i}@example.com`,
        fullName: `Corredor Queda ${i}`,
        passwordHash: 'x',
      })),
    )
    .returning({ id: users.id });
  const tokens = made.map(() => randomBytes(32).toString('base64url'));
  await db.insert(authTokens).values(
    made.map((u, i) => ({
      userId: u.id,
      tokenHash: hashToken(tokens[i]!),
      expiresAt: new Date(Date.now() + 86_400_000),
    })),
  );
  const addresses = createAddressesService({ db });
  const address = AddressInputSchema.parse(makeAddress());
  const buyers: Buyer[] = [];
  for (const [i, u] of made.entries()) {
    const { id } = await addresses.create(u.id, address);
    buyers.push({ id: u.id, headers: { authorization: `Token ${tokens[i]}` }, addressId: id });
  }
  return buyers;
}

/**
 * The shop's every-minute reconciliation (`charges.reconcile-all`), enqueued the way its cron tick does
 * (no key), so the test need not wait for the clock's next minute. A tick dropped because one is already
 * waiting is fine.
 */
async function tickReconciliation(): Promise<void> {
  await clock.send('charges.reconcile-all', {});
}

/** How many reconciliation runs are under way right now, in any process (dead ones included). */
async function reconciliationsRunning(): Promise<number> {
  const { rows } = (await database.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = 'charges.reconcile-all' and state = 'active'`,
  )) as { rows: Array<{ n: number }> };
  return rows[0]?.n ?? 0;
}

/** The browser's call after paying: the order the paid charge created. */
const orderRequest = (txid: string) => ({ txid, metodo_pagamento: 'pix', items: [], frete: 0 });

type Outcome =
  | { kind: 'pedido'; orderId: number; txid: string }
  | { kind: 'esgotado' }
  | { kind: 'abandonou'; txid: string }
  | { kind: 'sem_pix' }
  | { kind: 'pago_sem_resposta'; txid: string }
  | { kind: 'outro'; status: number; body: string; txid?: string };

beforeAll(async () => {
  empty = await createEmptyPostgresDatabase();
  database = await openDatabase({ url: empty.url });
  await database.migrate();
  efi = await startFakeEfiAccount({
    clientId: 'Client_Id_queda',
    clientSecret: 'Client_Secret_queda',
    pixKey: 'contato@passada.com.br',
    webhookSecret: WEBHOOK_SECRET,
    deliver,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await Promise.allSettled(deliveries);
  await clock?.stop({ graceful: false, wait: true });
  await efi?.close();
  await database?.close();
  await empty?.drop();
});

describe('SIGKILL during 200 concurrent paid orders on PostgreSQL, then restart', () => {
  it('loses no money: every 201 order exists, every paid Pix is one order or one refund, stock adds up, nothing stays open', async () => {
    const startedAt = Date.now();
    const product: MadeProduct = await makeProduct(database.db, {
      name: 'Camiseta Queda Livre',
      stock: [{ color: 'Laranja', size: 'M', quantity: UNITS }],
    });
    const combo = {
      productId: product.id,
      colorId: product.stock[0]!.colorId,
      sizeId: product.stock[0]!.sizeId,
    };
    const buyers = await seedBuyers();
    server = await startServer({ databaseUrl: empty.url, env: serverEnv() });
    const first = server;
    // The server set up the job queue at start; this only adds jobs to it.
    clock = new PgBoss({
      connectionString: empty.url,
      max: 1,
      migrate: false,
      schedule: false,
      supervise: false,
    });
    await clock.start();

    const draftFor = (b: Buyer) => ({
      items: [
        {
          product: product.id,
          quantity: 1,
          color: combo.colorId,
          size: combo.sizeId,
          product_name: product.name,
          product_price: product.priceCents / 100,
          product_size: 'M',
          product_color: 'Laranja',
        },
      ],
      address_id: b.addressId,
      frete: 'PAC' as const,
      metodo_pagamento: 'pix' as const,
    });
    const quote = await fetch(`${first.url}/api/calcular-frete/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        cepDestino: '60165121',
        items: [{ product: product.id, quantity: 1 }],
      }),
    });
    expect(quote.status).toBe(200);
    const totalCents =
      product.priceCents +
      commaStringToCents(((await quote.json()) as { precoFinalPAC: string }).precoFinalPAC);

    // --- The storm: each buyer asks for a Pix, pays it at the bank, and asks for the order until it shows.
    let answered = 0;
    let onAnswered: () => void = () => {};
    const enoughAnswered = new Promise<void>((resolve) => {
      onAnswered = () => {
        answered++;
        if (answered >= KILL_AFTER_ORDERS) resolve();
      };
    });
    /** A POST from a buyer's browser; null when the connection failed (the process went away). */
    const call = async (base: string, url: string, headers: Record<string, string>, body: object) => {
      try {
        const res = await fetch(`${base}${url}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: await res.text() };
      } catch {
        return null;
      }
    };
    const paidTxids = new Map<string, Buyer>();
    let markKilled: () => void = () => {};
    const killedSignal = new Promise<void>((resolve) => {
      markKilled = resolve;
    });

    async function flow(b: Buyer, i: number): Promise<Outcome> {
      if (i >= FIRST_WAVE) await enoughAnswered;
      await sleep(Math.random() * (i >= FIRST_WAVE ? 1_000 : ARRIVAL_SPREAD_MS));
      const pix = await call(first.url, '/api/pagar-pix/', b.headers, {
        total: totalCents / 100,
        finalidade: 'pedido',
        pedido: draftFor(b),
      });
      if (!pix) return { kind: 'sem_pix' };
      if (pix.status === 409 && pix.body.includes('estoque_insuficiente')) return { kind: 'esgotado' };
      if (pix.status !== 201) return { kind: 'outro', status: pix.status, body: pix.body };
      const { txid } = JSON.parse(pix.body) as { txid: string };
      // Some close the page with the QR code on screen: their charge must expire and give the unit back.
      if (i % ABANDON_EVERY === 0) return { kind: 'abandonou', txid };
      // The buyer opens the bank app: the bank takes the payment whether or not the shop is up.
      if (i % ABANDON_EVERY === PAYS_DURING_OUTAGE) await killedSignal;
      else await sleep(Math.random() * 1000);
      await efi.fake.payCob(txid);
      paidTxids.set(txid, b);
      for (;;) {
        const order = await call(first.url, '/api/orders/', b.headers, orderRequest(txid));
        // The shop went away mid-request: this buyer closes the tab.
        if (!order) return { kind: 'pago_sem_resposta', txid };
        if (order.status === 201) {
          onAnswered();
          return { kind: 'pedido', orderId: (JSON.parse(order.body) as { id: number }).id, txid };
        }
        if (order.status !== 402) return { kind: 'outro', status: order.status, body: order.body, txid };
        await sleep(300 + Math.random() * 200);
      }
    }

    // A slow Efí day: each Pix is created at once but answered late, so the kill always finds charges
    // that exist at the bank while the shop has not recorded Efí's answer yet.
    efi.fake.delay('PUT /v2/cob/', EFI_ANSWER_DELAY_MS, BUYERS);
    const stormAt = Date.now();
    const flows = Promise.all(buyers.map((b, i) => flow(b, i)));
    const storm = await Promise.race([
      enoughAnswered.then(() => 'kill' as const),
      flows.then(() => 'acabou' as const),
      sleep(90_000).then(() => 'demorou' as const),
    ]);
    expect(storm, `${answered} pedidos respondidos antes da queda`).toBe('kill');
    const fortyPercentAt = Date.now();
    // The minute's reconciliation starts just before the crash and dies with the process: Efí answers
    // its first reads slowly, so the run is certainly under way when the kill lands.
    efi.fake.delay('GET /v2/cob/', 500, 10);
    await tickReconciliation();
    const inCreation = async () =>
      (await database.db.select().from(charges)).filter((c) => c.status === 'ATIVA' && !c.pixCopiaECola)
        .length;
    const catalog = createCatalogService({ db: database.db });
    const stockLeft = async () =>
      (await catalog.getProduct(product.id, { color: combo.colorId, size: combo.sizeId })).stock[0]!.quantity;
    // The kill lands once every unit is held (the latecomers who missed one were told it is sold out)
    // while some of the last charges still wait for Efí's answer, and a reconciliation run is under way.
    const readyDeadline = Date.now() + 30_000;
    while (
      (await reconciliationsRunning()) === 0 ||
      (await stockLeft()) > 0 ||
      (await inCreation()) < CAUGHT_IN_CREATION
    ) {
      if (Date.now() > readyDeadline)
        throw new Error(
          `a queda não encontrou a reconciliação em curso, o estoque todo reservado e ${CAUGHT_IN_CREATION} cobranças em criação`,
        );
      await sleep(50);
    }
    server = null;
    await first.stop('SIGKILL');
    markKilled();
    const answeredBeforeKill = answered;
    const killedAt = Date.now();
    const outcomes = await flows;
    // Charges the kill caught between their creation and the record of Efí's answer.
    const unrecorded = await inCreation();
    expect(unrecorded).toBeGreaterThan(0);

    // --- Restart on the same database: start-up reconciliation runs; Efí notifies nobody again.
    server = await startServer({ databaseUrl: empty.url, env: serverEnv() });
    const second = server;
    const lostDeliveries = (await Promise.all(deliveries)).filter((d) => d === 'perdida').length;

    const paidAtBank = () => [...efi.fake.cobs.values()].filter((c) => c.status === 'CONCLUIDA');
    const chargeRows = () => database.db.select().from(charges);
    // Every Pix the bank took is settled (order or refund) by reconciliation alone.
    const settleDeadline = Date.now() + 60_000;
    for (;;) {
      const rows = await chargeRows();
      const open = paidAtBank().filter((c) => {
        const row = rows.find((r) => r.txid === c.txid);
        return !row || (row.status !== 'CONCLUIDA' && row.status !== 'DEVOLVIDA');
      });
      if (open.length === 0) break;
      if (Date.now() > settleDeadline)
        throw new Error(
          `${open.length} Pix pagos sem pedido nem devolução após o reinício:\n${second.output()}`,
        );
      await sleep(500);
    }

    // Buyers who paid but lost the answer come back: their order is there.
    const comeBack = outcomes.filter(
      (o): o is Extract<Outcome, { kind: 'pago_sem_resposta' }> => o.kind === 'pago_sem_resposta',
    );
    const afterRestart: Outcome[] = [];
    for (const o of comeBack) {
      const res = await call(
        second.url,
        '/api/orders/',
        paidTxids.get(o.txid)!.headers,
        orderRequest(o.txid),
      );
      afterRestart.push(
        res?.status === 201
          ? { kind: 'pedido', orderId: (JSON.parse(res.body) as { id: number }).id, txid: o.txid }
          : { kind: 'outro', status: res?.status ?? 0, body: res?.body ?? '', txid: o.txid },
      );
    }

    // The Pix lifetime ends at the bank for every charge nobody paid (as if 30 minutes went by there).
    for (const cob of efi.fake.cobs.values()) {
      if (cob.status !== 'ATIVA') continue;
      cob.calendario.criacao = new Date(Date.now() - (cob.calendario.expiracao + 1) * 1000).toISOString();
    }
    const closeDeadline = Date.now() + 75_000;
    for (;;) {
      const open = (await chargeRows()).filter((c) => c.status === 'ATIVA' || c.status === 'EM_ANALISE');
      if (open.length === 0) break;
      if (Date.now() > closeDeadline)
        throw new Error(
          `${open.length} cobranças ainda abertas após o prazo do Pix: ${open.map((c) => `${c.id}:${c.status}:${c.pixCopiaECola ? 'com' : 'sem'} BR Code`).join(', ')}\n${second.output()}`,
        );
      await tickReconciliation();
      await sleep(2_000);
    }

    // --- What the shop's records say.
    const allCharges = await chargeRows();
    const allOrders = await database.db.select().from(orders);
    const items = await database.db.select().from(orderItems);
    const refunds = await database.db.select().from(chargeRefunds);
    const left = await stockLeft();

    // 1. Every order id a buyer saw (before the kill or after the restart) exists, is theirs, with its line.
    const shown = [...outcomes, ...afterRestart].filter(
      (o): o is Extract<Outcome, { kind: 'pedido' }> => o.kind === 'pedido',
    );
    expect(shown.length).toBeGreaterThanOrEqual(answeredBeforeKill);
    for (const o of shown) {
      const order = allOrders.find((r) => r.id === o.orderId);
      expect(order, `pedido ${o.orderId}`).toBeDefined();
      const charge = allCharges.find((c) => c.id === order!.chargeId)!;
      expect(charge.txid).toBe(o.txid);
      expect(order!.userId).toBe(paidTxids.get(o.txid)!.id);
      expect(items.filter((i) => i.orderId === o.orderId)).toEqual([
        expect.objectContaining({ ...combo, quantity: 1 }),
      ]);
    }
    // Those who came back after the restart all found their order.
    expect(afterRestart.filter((o) => o.kind !== 'pedido')).toEqual([]);

    // 2. Every Pix the bank took: exactly one charge, and exactly one of an order or a refund.
    const paid = paidAtBank();
    expect(paid.length).toBe(paidTxids.size);
    for (const cob of paid) {
      const rows = allCharges.filter((c) => c.txid === cob.txid);
      expect(rows, `cobrança ${cob.txid}`).toHaveLength(1);
      const row = rows[0]!;
      const made = allOrders.filter((o) => o.chargeId === row.id).length;
      const returned = refunds.filter((r) => r.chargeId === row.id).length;
      expect({ txid: cob.txid, made, returned, status: row.status }).toEqual(
        made === 1
          ? { txid: cob.txid, made: 1, returned: 0, status: 'CONCLUIDA' }
          : { txid: cob.txid, made: 0, returned: 1, status: 'DEVOLVIDA' },
      );
    }
    // No order without a payment the bank knows about, and no charge with two orders.
    for (const o of allOrders) {
      const charge = allCharges.find((c) => c.id === o.chargeId)!;
      expect(efi.fake.cobs.get(charge.txid)?.status).toBe('CONCLUIDA');
    }
    expect(new Set(allOrders.map((o) => o.chargeId)).size).toBe(allOrders.length);

    // 3. Stock + units sold = the starting stock.
    const sold = items
      .filter(
        (i) => i.productId === combo.productId && i.colorId === combo.colorId && i.sizeId === combo.sizeId,
      )
      .reduce((sum, i) => sum + i.quantity, 0);
    expect(left + sold).toBe(UNITS);

    // 4. Nothing open is left: the bank's deadline passed for every unpaid charge.
    expect(allCharges.filter((c) => c.status === 'ATIVA' || c.status === 'EM_ANALISE')).toEqual([]);

    // A crash or a slow Efí may cost a buyer their answer (a 502 says Efí failed), never a 500.
    expect(outcomes.filter((o) => o.kind === 'outro' && o.status >= 500 && o.status !== 502)).toEqual([]);

    // The crash really cut flows short: some buyers paid without being answered, and Efí's
    // notifications of the Pix paid during the outage were lost.
    expect(comeBack.length).toBeGreaterThan(0);
    expect(lostDeliveries).toBeGreaterThan(0);

    const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
    console.info(
      `[queda] ${answeredBeforeKill} pedidos respondidos 201 antes do SIGKILL; ` +
        `(40% em ${Math.round((fortyPercentAt - stormAt) / 1000)} s, queda em ${Math.round((killedAt - stormAt) / 1000)} s); sem resposta ao pedir o Pix: ${count('sem_pix')}; ` +
        `cobranças sem BR Code na queda: ${unrecorded}; abandonados: ${count('abandonou')}; esgotados: ${count('esgotado')}; pagos sem resposta: ${comeBack.length}; ` +
        `outras respostas: ${count('outro')}; notificações perdidas: ${lostDeliveries}; ` +
        `Pix pagos: ${paid.length}; pedidos: ${allOrders.length}; devoluções: ${refunds.length}; ` +
        `cobranças: ${allCharges.length} (${[...new Set(allCharges.map((c) => c.status))].map((s) => `${s} ${allCharges.filter((c) => c.status === s).length}`).join(', ')}); ` +
        `estoque restante: ${left}; reinício→fim: ${Math.round((Date.now() - killedAt) / 1000)} s; ` +
        `total: ${Math.round((Date.now() - startedAt) / 1000)} s`,
    );
  }, 240_000);
});
