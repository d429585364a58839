import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { charges, eventCategories, eventKitSizes } from '../../db/schema/index.ts';
import { SIMULATED_PENDING_CARD } from '../../providers/payments/simulado.provider.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import {
  type Buyer,
  createOrderPix,
  makeBuyer,
  orderDraft,
  quoteCents,
} from '../../test/factories/orders.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza on 25 November 2026.
const START = new Date('2026-11-25T12:00:00Z');
const TODAY = '2026-11-25';

/**
 * Demo mode (`PAYMENTS=simulado`): the simulated bank keeps its charges in memory. A restart must not
 * leave the open ones ATIVA for ever, holding stock and places, with an error line every minute
 * (docs/decisions/0028-free-registrations.md).
 */
describe('simulated bank after a restart', () => {
  let database: Database;
  let clock = START;
  let cpfSeq = 310_000_000;
  /** Every log line of every app built on the database, as pino writes them (JSON). */
  const lines: Array<{ level: number; msg: string }> = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const apps: TestApp[] = [];
  const boot = async () => {
    const made = await createTestApp({
      database,
      now: () => clock,
      logger: true,
      logStream,
      env: { LOG_LEVEL: 'info', PIX_EXPIRATION_SECONDS: '1800' },
    });
    apps.push(made);
    return made;
  };
  /** A restart: the process ends (the bank's memory with it), a new one starts on the same database. */
  const restart = async (before: TestApp) => {
    await before.app.close();
    rmSync(before.dataDir, { recursive: true, force: true });
    return boot();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const a of apps) await a.app.close();
    await database.close();
    for (const a of apps) rmSync(a.dataDir, { recursive: true, force: true });
  });

  async function openCartPix(t: TestApp) {
    const db = t.app.db;
    const buyer: Buyer = await makeBuyer(t.app);
    const product = await makeProduct(db, {
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: 5 }],
    });
    const event = await makeEvent(db, { today: TODAY, kitSizes: [{ size: 'M', left: 10 }] });
    const categoryId = event.days[0]!.categories[0]!.id;
    const kitSizeId = event.kitSizes![0]!.id;
    const runner = participant(event, [categoryId], { cpf: cpfFrom(cpfSeq++) });
    const draft = { ...orderDraft(buyer, [{ product }]), inscricoes: [runner] };
    const totalCents =
      8990 + (await quoteCents(t.app, buyer.zipCode, orderDraft(buyer, [{ product }]))) + 8990;
    const res = await createOrderPix(t.app, buyer.headers, draft, totalCents);
    expect(res.statusCode).toBe(201);
    return { buyer, product, categoryId, kitSizeId, txid: res.json().txid as string };
  }

  const held = async (t: TestApp, product: MadeProduct, categoryId: number, kitSizeId: number) => {
    const db = t.app.db;
    const stock = (
      await t.app.catalog.getProduct(product.id, {
        color: product.stock[0]!.colorId,
        size: product.stock[0]!.sizeId,
      })
    ).stock[0]!.quantity;
    const [place] = await db.select().from(eventCategories).where(eq(eventCategories.id, categoryId));
    const [kit] = await db.select().from(eventKitSizes).where(eq(eventKitSizes.id, kitSizeId));
    return { stock, places: place!.placesLeft, kit: kit!.left };
  };
  const chargeOf = async (t: TestApp, txid: string) =>
    (await t.app.db.select().from(charges).where(eq(charges.txid, txid)))[0]!;

  it('an open Pix of before the restart expires at its deadline: stock, place and shirt come back, no error line', async () => {
    clock = START;
    const first = await boot();
    const { buyer, product, categoryId, kitSizeId, txid } = await openCartPix(first);
    expect(await held(first, product, categoryId, kitSizeId)).toEqual({ stock: 4, places: 99, kit: 9 });

    const second = await restart(first);
    const errorsBefore = lines.filter((l) => l.level >= 50).length;
    // Before the deadline the reconciliation leaves it open (the buyer may still pay).
    clock = new Date(START.getTime() + 10 * 60_000);
    await second.app.payments.reconcileAll();
    expect((await chargeOf(second, txid)).status).toBe('ATIVA');

    clock = new Date(START.getTime() + 31 * 60_000);
    await second.app.payments.reconcileAll();
    expect((await chargeOf(second, txid)).status).toBe('EXPIRADA');
    expect(await held(second, product, categoryId, kitSizeId)).toEqual({ stock: 5, places: 100, kit: 10 });
    // The buyer's page says so, too.
    const status = await second.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: buyer.headers,
    });
    expect(status.json()).toMatchObject({ status: 'EXPIRADA' });
    // Nothing at error level (pino: 50 error, 60 fatal), as every minute's reconciliation would log.
    expect(lines.slice(errorsBefore).filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.some((l) => l.msg === 'charge expired')).toBe(true);
  });

  it('an open Pix of before the restart can still be paid in the demo, and becomes the order', async () => {
    clock = START;
    const first = await boot();
    const { product, categoryId, kitSizeId, txid } = await openCartPix(first);
    const second = await restart(first);
    clock = new Date(START.getTime() + 5 * 60_000);
    const paid = await simulatePixPaid(second.app, txid);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: expect.any(Number) });
    // Sold: nothing goes back at the deadline.
    clock = new Date(START.getTime() + 31 * 60_000);
    await second.app.payments.reconcileAll();
    expect((await chargeOf(second, txid)).status).toBe('CONCLUIDA');
    expect(await held(second, product, categoryId, kitSizeId)).toEqual({ stock: 4, places: 99, kit: 9 });
  });

  it('a card still pending at the simulated network before the restart is read again, quietly', async () => {
    clock = START;
    const first = await boot();
    const buyer = await makeBuyer(first.app);
    const event = await makeEvent(first.app.db, { today: TODAY });
    const categoryId = event.days[0]!.categories[0]!.id;
    const res = await registrationCard(first.app, {
      number: SIMULATED_PENDING_CARD,
      draft: participant(event, [categoryId], { cpf: cpfFrom(cpfSeq++) }),
      total: 89.9,
      user: buyer,
      key: 'restart-card-1',
    });
    expect(res.statusCode).toBe(202);
    const txid = res.json().txid as string;
    const second = await restart(first);
    const errorsBefore = lines.filter((l) => l.level >= 50).length;
    clock = new Date(START.getTime() + 15 * 60_000);
    await second.app.payments.reconcileAll();
    expect((await chargeOf(second, txid)).status).toBe('EM_ANALISE');
    expect(lines.slice(errorsBefore).filter((l) => l.level >= 50)).toEqual([]);
  });
});
