import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charges, orders, stockReservations } from '../../db/schema/index.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import {
  createOrderPix,
  draftTotalCents,
  makeQuickBuyer,
  orderDraft,
  postOrder,
} from '../../test/factories/orders.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

const WEBHOOK_SECRET = 'segredo-do-webhook-de-pedidos';
// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { EFI_WEBHOOK_SECRET: WEBHOOK_SECRET, EFI_WEBHOOK_ALLOWED_IPS: '127.0.0.1' },
  });
});
afterAll(() => t.close());

const db = () => t.app.db;
const stockOf = async (p: MadeProduct) =>
  (await t.app.catalog.getProduct(p.id, { color: p.stock[0]!.colorId, size: p.stock[0]!.sizeId })).stock[0]!
    .quantity;
const chargesFor = async (txids: string[]) =>
  (await db().select().from(charges)).filter((c) => txids.includes(c.txid));
const webhook = (txid: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/pix/?hmac=${WEBHOOK_SECRET}`,
    payload: {
      pix: [{ endToEndId: `E${txid.slice(0, 20)}`, txid, valor: '1.00', horario: new Date().toISOString() }],
    },
  });

/** `buyers` people ask at once for one unit each of a combination with `units` in stock. */
async function rush(buyers: number, units: number) {
  const product = await makeProduct(db(), {
    name: 'Regata Última Unidade',
    stock: [{ color: 'Amarelo', size: 'P', quantity: units }],
  });
  const people = await Promise.all(Array.from({ length: buyers }, () => makeQuickBuyer(t.app)));
  const total = await draftTotalCents(t.app, people[0]!.zipCode, orderDraft(people[0]!, [{ product }]), [
    product,
  ]);
  const results = await Promise.all(
    people.map((p) => createOrderPix(t.app, p.headers, orderDraft(p, [{ product }]), total)),
  );
  const won = results.filter((r) => r.statusCode === 201).map((r) => r.json().txid as string);
  const lost = results.filter((r) => r.statusCode === 409);
  return { product, people, results, won, lost };
}

/**
 * One paid Pix confirmed at once by the simulator, `webhooks` bank notifications and `browserCalls`
 * POST /api/orders/: every browser call gets the same order, and there is exactly one.
 */
async function confirmAtOnce(webhooks: number, browserCalls: number) {
  const product = await makeProduct(db());
  const buyer = await makeQuickBuyer(t.app);
  const draft = orderDraft(buyer, [{ product, quantity: 2 }]);
  const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
  const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
  // Paid at the bank before anyone tells the server, so every caller below can confirm it.
  t.app.providers.payments.simulator!.payPix(txid, t.app.now());
  const responses = await Promise.all([
    simulatePixPaid(t.app, txid),
    ...Array.from({ length: webhooks }, () => webhook(txid)),
    ...Array.from({ length: browserCalls }, () => postOrder(t.app, buyer.headers, txid)),
  ]);
  const [simulated, ...rest] = responses;
  expect(simulated!.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: expect.any(Number) });
  expect(rest.slice(0, webhooks).every((r) => r.statusCode === 200)).toBe(true);
  const posts = rest.slice(webhooks);
  expect(posts.map((r) => r.statusCode)).toEqual(Array(browserCalls).fill(201));
  const ids = new Set(posts.map((r) => r.json().id as number));
  expect(ids).toEqual(new Set([simulated!.json().pedido_id]));
  const [charge] = await chargesFor([txid]);
  expect(await db().select().from(orders).where(eq(orders.chargeId, charge!.id))).toHaveLength(1);
  expect(await stockOf(product)).toBe(3);
  return { orderId: simulated!.json().pedido_id as number };
}

describe('orders under concurrent requests (PGlite or PostgreSQL)', () => {
  it('8 buyers for 5 units: exactly 5 charges, stock 0, the other 3 get 409', async () => {
    const { product, results, won, lost } = await rush(8, 5);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    expect(lost.every((r) => r.json().code === 'estoque_insuficiente')).toBe(true);
    expect(await chargesFor(won)).toHaveLength(5);
    expect(await stockOf(product)).toBe(0);
  });

  it('a payment confirmed by the simulator, webhooks and the browser at once: one order, one e-mail', async () => {
    const { orderId } = await confirmAtOnce(3, 3);
    const summary = `Recebemos o pagamento do seu pedido nº ${orderId} em`;
    // Once the confirmation e-mails' queue is empty, a wrong second send would have landed.
    await untilJobsDone(t.app.db, 'mail.order-confirmation');
    expect(readOutbox(t.dataDir).filter((m) => m.includes(summary))).toHaveLength(1);
  });
});

describe('PostgreSQL: 50 concurrent buyers, real row locks', () => {
  beforeAll(() => {
    console.info(`[orders] PostgreSQL suite running on ${t.database.kind}.`);
    expect(t.database.kind).toBe('postgres');
  });

  it('50 concurrent Pix charges for 5 units: exactly 5 created, stock 0, 45 get 409; paying all makes 5 orders', async () => {
    const { product, people, results, won, lost } = await rush(50, 5);
    expect(won).toHaveLength(5);
    expect(lost).toHaveLength(45);
    expect(lost[0]!.json().detail).toMatch(/^Estoque insuficiente para Regata Última Unidade \(Amarelo, P\)/);
    const created = await chargesFor(won);
    expect(created).toHaveLength(5);
    expect(await stockOf(product)).toBe(0);
    const held = await db().select().from(stockReservations);
    expect(held.filter((r) => r.productId === product.id)).toHaveLength(5);

    // Everyone who won pays at once, and their browsers ask for the order at the same time.
    const ownerOf = new Map(
      results.flatMap((r, i) => (r.statusCode === 201 ? [[r.json().txid as string, people[i]!]] : [])),
    );
    const answers = await Promise.all(
      won.flatMap((txid) => [
        simulatePixPaid(t.app, txid),
        webhook(txid),
        postOrder(t.app, ownerOf.get(txid)!.headers, txid),
      ]),
    );
    // A browser that asks before its payment is confirmed is told to wait (402 `pagamento_pendente`) and
    // asks again, as the page does; any other refusal is a failure. Listed, not just counted, so a
    // refusal under load says which status and why.
    const early = (r: (typeof answers)[number]) =>
      r.statusCode === 402 && r.json().code === 'pagamento_pendente';
    expect(
      answers.filter((r) => r.statusCode >= 300 && !early(r)).map((r) => `${r.statusCode} ${r.body}`),
    ).toEqual([]);
    const again = await Promise.all(won.map((txid) => postOrder(t.app, ownerOf.get(txid)!.headers, txid)));
    expect(again.filter((r) => r.statusCode >= 300).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const made = (await db().select().from(orders)).filter((o) => created.some((c) => c.id === o.chargeId));
    expect(made).toHaveLength(5);
    expect(await stockOf(product)).toBe(0);
  });

  it('the same payment from the simulator, 10 webhooks and 10 browser calls at once: one order', async () => {
    await confirmAtOnce(10, 10);
  });
});
