import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authTokens, chargeRefunds, charges, orders } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { readOutbox, waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import {
  BUYER_CPF,
  documentsOf,
  paidCardOrder,
  saveFiscalSettings,
  saveProductFiscal,
} from '../../test/factories/fiscal.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T15:00:00Z');
const DAY = 86_400_000;

/**
 * One door for every change to a sold order (order-change.ts, docs/decisions/0036, 0040 and 0043, later
 * 2026-12-02): the same money, stock, nota and e-mail rules whichever path the change takes.
 */
describe('changes to a sold order', () => {
  let t: TestApp;
  let now = START;
  let staff: TestStaff;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    buyer = await makeBuyer(t.app);
    staff = await createStaffAndLogin(t.app, 'admin');
    await saveFiscalSettings(t.app, staff.headers);
  }, 60_000);
  afterAll(() => t.close());

  /** The clock moves `days` from the start; staff and buyer sign in again on it. */
  async function later(days: number) {
    now = new Date(START.getTime() + days * DAY);
    staff = await createStaffAndLogin(t.app, 'admin');
    const token = randomBytes(32).toString('base64url');
    await t.app.db
      .insert(authTokens)
      .values({ userId: buyer.id, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + DAY) });
    buyer = { ...buyer, headers: { authorization: `Token ${token}` } };
  }

  const staffGet = (url: string) =>
    t.app.inject({ method: 'GET', url: `/api/painel${url}`, headers: staff.headers });
  const staffPost = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: staff.headers, payload });
  const buyerPost = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: buyer.headers, payload });
  const buyerGet = (url: string) => t.app.inject({ method: 'GET', url, headers: buyer.headers });
  const queued = async (id: number) =>
    (await staffGet('/devolucoes/')).json().find((r: { id: number }) => r.id === id);
  const stockOf = async (p: MadeProduct, i: number) =>
    (await t.app.catalog.getProduct(p.id, { color: p.stock[i]!.colorId, size: p.stock[i]!.sizeId })).stock[0]!
      .quantity;
  const chargeOf = async (orderId: number) => {
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    const [charge] = await t.app.db.select().from(charges).where(eq(charges.id, order!.chargeId));
    return charge!;
  };

  /**
   * Jobs of `name` wait (start a day later) while held: a trigger moves them as they are written, so no
   * worker can take one first. `release` makes them due now, in the order they were written.
   */
  async function hold(name: string) {
    const trigger = `hold_${name.replace(/\W/g, '_')}`;
    await t.app.db.execute(
      sql.raw(`create or replace function ${trigger}() returns trigger language plpgsql as $$
        begin new.start_after := now() + interval '1 day'; return new; end $$`),
    );
    await t.app.db.execute(
      sql.raw(`create trigger ${trigger} before insert on pgboss.job for each row
        when (new.name = '${name}') execute function ${trigger}()`),
    );
    return async function release() {
      await t.app.db.execute(sql.raw(`drop trigger ${trigger} on pgboss.job`));
      await t.app.db.execute(
        sql`update pgboss.job set start_after = now() where name = ${name} and state in ('created', 'retry')`,
      );
    };
  }

  async function drain(name: string) {
    await vi.waitFor(
      async () => {
        const waiting = (await t.app.db.execute(
          sql`select count(*) as n from pgboss.job where name = ${name} and state in ('created', 'retry', 'active')`,
        )) as { rows: Array<{ n: number | string }> };
        expect(Number(waiting.rows[0]?.n)).toBe(0);
      },
      { timeout: 45_000, interval: 100 },
    );
  }

  async function newProduct(priceCents = 10_000) {
    const product = await makeProduct(t.app.db, {
      name: `Camiseta Mudança ${randomBytes(3).toString('hex')}`,
      priceCents,
      stock: [
        { color: 'Azul', size: 'M', quantity: 5 },
        { color: 'Azul', size: 'G', quantity: 5 },
      ],
    });
    await saveProductFiscal(t.app, staff.headers, product.id);
    return product;
  }

  /** A paid Pix order; `discountCents` is what a coupon in `extra` takes off. */
  async function pixOrder(product: MadeProduct, quantity: number, extra: object = {}, discountCents = 0) {
    const draft = { ...orderDraft(buyer, [{ product, quantity }]), cpf: BUYER_CPF, ...extra };
    const total = (await draftTotalCents(t.app, buyer.zipCode, draft, [product])) - discountCents;
    const pix = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(pix.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, pix.json().txid);
    return { orderId: paid.json().pedido_id as number, total };
  }

  /** Packed, shipped and delivered on day 2; the clock then stands on day 4. */
  async function deliver(orderId: number) {
    await later(0);
    for (const step of [{ status: 'em separação' }, { status: 'enviado', codigo_rastreio: 'AA123456785BR' }])
      expect((await staffPost(`/orders/${orderId}/status/`, step)).statusCode).toBe(200);
    await later(2);
    expect((await staffPost(`/orders/${orderId}/status/`, { status: 'entregue' })).statusCode).toBe(200);
    await later(4);
  }

  const itemIdOf = async (orderId: number) =>
    (await buyerGet('/api/orders/')).json().find((o: { id: number }) => o.id === orderId).items[0]
      .item_id as number;

  it('a card order in 10× returned whole after delivery: the queue suggests every centavo paid, interest included', async () => {
    await later(0);
    const product = await newProduct(9_000);
    const orderId = await paidCardOrder(t.app, buyer, product, 2, undefined, 10);
    const charge = await chargeOf(orderId);
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.interestCents).toBeGreaterThan(0);
    await deliver(orderId);

    const itemId = await itemIdOf(orderId);
    const asked = await buyerPost(`/api/orders/${orderId}/devolucoes/`, {
      itens: [{ item_id: itemId, quantidade: 2 }],
      motivo: 'arrependimento',
    });
    expect(asked.statusCode).toBe(201);
    // CDC art. 49: every amount paid, the card interest and the shipping included.
    const request = await queued(asked.json().id);
    expect(request.sugestao).toBe(charge.amountCents / 100);

    const refunded = await staffPost(`/devolucoes/${request.id}/reembolso/`, {
      valor: request.sugestao,
      versao: request.versao,
    });
    expect(refunded.statusCode).toBe(200);
    expect((await chargeOf(orderId)).status).toBe('DEVOLVIDA');
  });

  it('a same-price exchange suggests nothing and cannot become a refund before its unit is back; then the held unit goes back', async () => {
    const product = await newProduct();
    await later(0);
    const { orderId } = await pixOrder(product, 1);
    await deliver(orderId);
    const itemId = await itemIdOf(orderId);
    const asked = await buyerPost(`/api/orders/${orderId}/trocas/`, {
      itens: [
        {
          item_id: itemId,
          quantidade: 1,
          cor_id: product.stock[1]!.colorId,
          tamanho_id: product.stock[1]!.sizeId,
        },
      ],
      motivo: 'arrependimento',
    });
    expect(asked.statusCode).toBe(201);
    expect(await stockOf(product, 1)).toBe(4);
    const request = await queued(asked.json().id);
    expect(request.sugestao).toBe(0);

    const early = await staffPost(`/devolucoes/${request.id}/reembolso/`, {
      valor: 100,
      versao: request.versao,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('troca_nao_recebida');
    const charge = await chargeOf(orderId);
    expect(await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id))).toEqual(
      [],
    );

    // Back in the shop: staff may refund instead of shipping; the held G goes back on the shelf.
    const received = await staffPost(`/devolucoes/${request.id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: true }],
      versao: request.versao,
    });
    expect(received.statusCode).toBe(200);
    const refunded = await staffPost(`/devolucoes/${request.id}/reembolso/`, {
      valor: 100,
      versao: received.json().versao,
    });
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json().status).toBe('reembolsada');
    expect(await stockOf(product, 1)).toBe(5);
    expect(await stockOf(product, 0)).toBe(5);
  });

  it('a unit withdrawn before shipping leaves the packing slip and the order, and is shown back on the shelf', async () => {
    const product = await newProduct(5_000);
    await later(0);
    const { orderId } = await pixOrder(product, 2);
    const itemId = await itemIdOf(orderId);
    const withdrawn = await buyerPost(`/api/orders/${orderId}/desistencia/`, {
      itens: [{ item_id: itemId, quantidade: 1 }],
    });
    expect(withdrawn.statusCode).toBe(201);
    expect(withdrawn.json().itens).toEqual([expect.objectContaining({ voltou_ao_estoque: true })]);
    expect(await stockOf(product, 0)).toBe(4);

    const slip = (await staffGet(`/orders/${orderId}/romaneio/`)).json();
    expect(slip.itens.map((i: { quantidade: number }) => i.quantidade)).toEqual([1]);
    const detail = (await staffGet(`/orders/${orderId}/`)).json();
    expect(detail.itens.map((i: { quantidade: number }) => i.quantidade)).toEqual([1]);
    expect(detail.reembolsado).toBe(50);
    const mine = (await buyerGet('/api/orders/')).json().find((o: { id: number }) => o.id === orderId);
    expect(mine.items.map((i: { quantity: number }) => i.quantity)).toEqual([1]);
    expect(mine.reembolsado).toBe(50);
    const card = (await buyerGet(`/api/orders/${orderId}/pos-venda/`)).json().solicitacoes[0];
    expect(card.itens[0].voltou_ao_estoque).toBe(true);
  });

  it('an exchange ships with the replacement’s NF-e and the devolução of the unit that came back', async () => {
    const product = await newProduct();
    await later(0);
    const { orderId } = await pixOrder(product, 1);
    await vi.waitFor(
      async () =>
        expect((await documentsOf(t.app.db, orderId)).find((d) => d.kind === 'nfe')?.status).toBe(
          'autorizada',
        ),
      { timeout: 45_000, interval: 200 },
    );
    await deliver(orderId);
    const itemId = await itemIdOf(orderId);
    const asked = await buyerPost(`/api/orders/${orderId}/trocas/`, {
      itens: [
        {
          item_id: itemId,
          quantidade: 1,
          cor_id: product.stock[1]!.colorId,
          tamanho_id: product.stock[1]!.sizeId,
        },
      ],
      motivo: 'arrependimento',
    });
    const id = asked.json().id as number;
    const received = await staffPost(`/devolucoes/${id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: true }],
      versao: (await queued(id)).versao,
    });
    const shipped = await staffPost(`/devolucoes/${id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456785BR',
      versao: received.json().versao,
    });
    expect(shipped.statusCode).toBe(200);
    const docs = await vi.waitFor(
      async () => {
        const all = (await documentsOf(t.app.db, orderId)).filter((d) => d.returnId === id);
        expect(all.map((d) => `${d.kind} ${d.status}`).sort()).toEqual([
          'nfe autorizada',
          'nfe_devolucao autorizada',
        ]);
        return all;
      },
      { timeout: 45_000, interval: 200 },
    );
    // Same price: the replacement's nota and the devolução are of the same value.
    expect(docs.map((d) => d.amountCents)).toEqual([10_000, 10_000]);
  });

  it('staff moving a return quickly: one e-mail per state, each once, in order', async () => {
    const product = await newProduct();
    await later(0);
    const { orderId } = await pixOrder(product, 1);
    await deliver(orderId);
    const itemId = await itemIdOf(orderId);
    const asked = await buyerPost(`/api/orders/${orderId}/devolucoes/`, {
      itens: [{ item_id: itemId, quantidade: 1 }],
      motivo: 'arrependimento',
    });
    const id = asked.json().id as number;
    await waitForMailContaining(t.dataDir, `Devolução nº ${id} do pedido nº ${orderId}: Código de postagem`);
    const release = await hold('mail.return-update');
    const posted = await staffPost(`/devolucoes/${id}/postada/`, { versao: (await queued(id)).versao });
    const received = await staffPost(`/devolucoes/${id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: true }],
      versao: posted.json().versao,
    });
    const refunded = await staffPost(`/devolucoes/${id}/reembolso/`, {
      valor: (await queued(id)).sugestao,
      versao: received.json().versao,
    });
    expect(refunded.statusCode).toBe(200);
    await release();
    await drain('mail.return-update');
    const lines = readOutbox(t.dataDir)
      .map((m) => new RegExp(`Devolução nº ${id} do pedido nº ${orderId}: ([^.\\n]+)\\.`).exec(m)?.[1])
      .filter(Boolean);
    expect(lines).toEqual(['Código de postagem enviado', 'Postada', 'Recebida pela loja', 'Reembolsada']);
  });

  it('a withdrawal e-mail never arrives before the order’s confirmation, which is sent once', async () => {
    const product = await newProduct();
    await later(0);
    const release = await hold('mail.order-confirmation');
    const { orderId } = await pixOrder(product, 1);
    const withdrawn = await buyerPost(`/api/orders/${orderId}/desistencia/`, {});
    expect(withdrawn.statusCode).toBe(201);
    const confirmation = `Recebemos o pagamento do seu pedido nº ${orderId} em`;
    const withdrawal = `Confirmamos o recebimento da sua desistência da compra (pedido nº ${orderId}`;
    await waitForMailContaining(t.dataDir, withdrawal, 30_000);
    await release();
    await drain('mail.order-confirmation');
    const mails = readOutbox(t.dataDir);
    const first = mails.findIndex((m) => m.includes(confirmation));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(mails.findIndex((m) => m.includes(withdrawal)));
    expect(mails.filter((m) => m.includes(confirmation))).toHaveLength(1);
  });

  it('the coupon’s share: a unit’s value is rounded down, and the centavo left goes back with the last unit', async () => {
    const product = await newProduct(7_995);
    await later(0);
    const coupon = await createCoupon(t.app, staff.headers, { tipo: 'percentual', valor: 10 });
    const { orderId, total } = await pixOrder(product, 2, { cupom: coupon.codigo }, 1_599);
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    // 2 × R$ 79,95 = R$ 159,90 less 10 % (R$ 15,99): R$ 143,91 for two units, R$ 71,955 each.
    expect(order!.discountCents).toBe(1_599);
    const itemId = await itemIdOf(orderId);
    const first = await buyerPost(`/api/orders/${orderId}/desistencia/`, {
      itens: [{ item_id: itemId, quantidade: 1 }],
    });
    expect(first.json()).toMatchObject({ valor_reembolsado: 71.95, itens: [{ valor: 71.95 }] });
    const rest = await buyerPost(`/api/orders/${orderId}/desistencia/`, {});
    // The rest of the payment: the other unit's R$ 71,96 and the shipping.
    expect(rest.json().valor_reembolsado).toBe((total - 7_195) / 100);
    const refunds = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, order!.chargeId));
    expect(refunds.reduce((sum, r) => sum + r.amountCents, 0)).toBe(total);
  });
});
