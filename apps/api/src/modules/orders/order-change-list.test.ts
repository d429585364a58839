import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, orderReturns, orders } from '../../db/schema/index.ts';
import { readOutbox, waitForMailContaining } from '../../test/factories/accounts.ts';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import { paidCardOrder } from '../../test/factories/fiscal.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeShirtAndBuyer,
  orderDraft,
  paidTwoLineOrder,
  shelfUnits,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T12:00:00Z');

/**
 * The operations of a list (docs/decisions/0065, pretix's OrderChangeManager): units removed, units
 * swapped to another colour or size under a new sale's stock rule, registrations withdrawn; one refund,
 * one e-mail, one history row for the whole list.
 */
describe('a list of operations on an order before it ships', () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let product: MadeProduct;

  beforeAll(async () => {
    ({ buyer, product } = await makeShirtAndBuyer(t.app, 'Camiseta Operações', [
      { color: 'Verde', size: 'P', quantity: 1 },
      { color: 'Branco', size: 'GG', quantity: 0 },
    ]));
  });

  const buy = () => paidTwoLineOrder(t.app, buyer, product);
  const stockOf = (i: number) => shelfUnits(t.app, product, i);
  const stocks = async () => Promise.all(product.stock.map((_, i) => stockOf(i)));
  const variant = (i: number) => ({
    cor_id: product.stock[i]!.colorId,
    tamanho_id: product.stock[i]!.sizeId,
  });
  const post = (url: string, payload: object, headers: Record<string, string> = buyer.headers) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const versionOf = async (id: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/orders/${id}/pos-venda/`, headers: buyer.headers })
    ).json().versao as number;
  const linesOf = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers }))
      .json()
      .find((o: { id: number }) => o.id === id).items as Array<{
      item_id: number;
      quantity: number;
      product_color: string;
      product_size: string;
    }>;
  const refundsOf = async (chargeId: number) =>
    t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, chargeId));
  const chargeOfOrder = async (orderId: number) => {
    const [o] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    const [c] = await t.app.db.select().from(charges).where(eq(charges.id, o!.chargeId));
    return { order: o!, charge: c! };
  };

  it('removes one unit and swaps another in one list: one refund, one request, one e-mail, the stock moved', async () => {
    const { order } = await buy();
    const [blue, black] = order.items as [{ item_id: number }, { item_id: number }];
    const before = await stocks();
    const list = {
      itens: [{ item_id: blue.item_id, quantidade: 1 }],
      trocas: [{ item_id: black.item_id, quantidade: 1, ...variant(2) }],
      versao: await versionOf(order.id),
    };

    const quote = await post(`/api/orders/${order.id}/alteracoes/cotacao/`, list);
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toMatchObject({
      a_devolver: 50,
      trocas: [{ item_id: black.item_id, quantidade: 1, cor: 'Verde', tamanho: 'P' }],
      cancela_pedido: false,
    });
    expect(await stocks()).toEqual(before);

    const made = await post(`/api/orders/${order.id}/alteracoes/`, list);
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ valor_reembolsado: 50 });
    // Blue M: one back; black G: one back; green P: its last unit now held for this order.
    expect(await stocks()).toEqual([before[0]! + 1, before[1]! + 1, 0, 0]);
    const lines = await linesOf(order.id);
    expect(lines.map((l) => [l.product_color, l.product_size])).toEqual([
      ['Azul', 'M'],
      ['Verde', 'P'],
    ]);
    const { charge } = await chargeOfOrder(order.id);
    expect((await refundsOf(charge.id)).map((r) => r.amountCents)).toEqual([5000]);
    expect(await t.app.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toHaveLength(
      1,
    );
    const mail = await waitForMailContaining(t.dataDir, `desistência da compra (pedido nº ${order.id}`);
    expect(mail).toContain('Preto/G para Verde/P');
    expect(readOutbox(t.dataDir).filter((m) => m.includes(`do pedido nº ${order.id}:`))).toHaveLength(1);

    // The swapped unit withdrawn with the rest: the order cancelled, every centavo back, the held unit too.
    const rest = await post(`/api/orders/${order.id}/desistencia/`, {});
    expect(rest.statusCode).toBe(201);
    expect((await chargeOfOrder(order.id)).order.status).toBe('cancelado');
    expect((await chargeOfOrder(order.id)).charge.status).toBe('DEVOLVIDA');
    expect(await stocks()).toEqual([before[0]! + 2, before[1]! + 1, 1, 0]);
  });

  it('refuses the earlier shape of the list (operacoes) instead of reading it as the whole order', async () => {
    const { order } = await buy();
    const before = await stocks();
    const res = await post(`/api/orders/${order.id}/alteracoes/`, {
      operacoes: [{ tipo: 'remover', item_id: order.items[0]!.item_id, quantidade: 1 }],
      versao: await versionOf(order.id),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Envie a lista em itens, trocas e inscricoes.');
    expect((await chargeOfOrder(order.id)).order.status).toBe('pago');
    expect(await stocks()).toEqual(before);
  });

  it('swaps a unit to a colour and size the order already holds; withdrawn, every unit comes back', async () => {
    const { order } = await buy();
    const [blue, black] = order.items as [
      { item_id: number; quantity: number },
      { item_id: number; quantity: number },
    ];
    const before = await stocks();
    const made = await post(`/api/orders/${order.id}/alteracoes/`, {
      trocas: [{ item_id: blue.item_id, quantidade: 1, ...variant(1) }],
      versao: await versionOf(order.id),
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(await stocks()).toEqual([before[0]! + 1, before[1]! - 1, before[2], before[3]]);
    const held = (await linesOf(order.id)).filter((l) => l.product_size === 'G');
    expect(held.reduce((n, l) => n + l.quantity, 0)).toBe(black.quantity + 1);

    const rest = await post(`/api/orders/${order.id}/desistencia/`, {});
    expect(rest.statusCode, rest.body).toBe(201);
    expect(await stocks()).toEqual([
      before[0]! + blue.quantity,
      before[1]! + black.quantity,
      before[2],
      before[3],
    ]);
    expect((await chargeOfOrder(order.id)).charge.status).toBe('DEVOLVIDA');
  });

  it('a swap to a sold-out size is refused and writes nothing, with the removal of the same list', async () => {
    const { order } = await buy();
    const [blue, black] = order.items as [{ item_id: number }, { item_id: number }];
    const before = await stocks();
    const versao = await versionOf(order.id);
    const refused = await post(`/api/orders/${order.id}/alteracoes/`, {
      itens: [{ item_id: blue.item_id, quantidade: 1 }],
      trocas: [{ item_id: black.item_id, quantidade: 1, ...variant(3) }],
      versao,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('estoque_insuficiente');
    expect(await stocks()).toEqual(before);
    expect(await t.app.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toEqual([]);
    expect(await refundsOf((await chargeOfOrder(order.id)).charge.id)).toEqual([]);
    expect(await versionOf(order.id)).toBe(versao);

    // The same line changed twice, and more units than the line has, are refused before any check of stock.
    const twice = await post(`/api/orders/${order.id}/alteracoes/`, {
      itens: [{ item_id: black.item_id, quantidade: 1 }],
      trocas: [{ item_id: black.item_id, quantidade: 1, ...variant(0) }],
      versao,
    });
    expect(twice.json().code).toBe('alteracao_repetida');
    const tooMany = await post(`/api/orders/${order.id}/alteracoes/`, {
      trocas: [{ item_id: blue.item_id, quantidade: 3, ...variant(1) }],
      versao,
    });
    expect(tooMany.json().code).toBe('quantidade_indisponivel');
  });

  it('a whole list after a swap empties the order: cancelled, nothing left open', async () => {
    const { order, total } = await buy();
    const [blue] = order.items as [{ item_id: number }, { item_id: number }];
    const swapped = await post(`/api/orders/${order.id}/alteracoes/`, {
      trocas: [{ item_id: blue.item_id, quantidade: 2, ...variant(1) }],
      versao: await versionOf(order.id),
    });
    expect(swapped.statusCode).toBe(201);
    expect(swapped.json().valor_reembolsado).toBe(0);
    const lines = await linesOf(order.id);
    const versao = await versionOf(order.id);
    const whole = await post(`/api/orders/${order.id}/alteracoes/`, {
      itens: lines.map((l) => ({ item_id: l.item_id, quantidade: l.quantity })),
      versao,
    });
    expect(whole.statusCode).toBe(201);
    const { order: after, charge } = await chargeOfOrder(order.id);
    expect(after.status).toBe('cancelado');
    expect((await refundsOf(charge.id)).reduce((s, r) => s + r.amountCents, 0)).toBe(total);
  });

  it('never gives back more than is left: a coupon order in parts, a card in 10× whole with its interest', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const coupon = await createCoupon(t.app, admin.headers, { tipo: 'percentual', valor: 10 });
    const draft = { ...orderDraft(buyer, [{ product, quantity: 3 }]), cupom: coupon.codigo };
    const total = (await draftTotalCents(t.app, buyer.zipCode, draft, [product])) - 1_500;
    const pix = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(pix.statusCode).toBe(201);
    const orderId = (await simulatePixPaid(t.app, pix.json().txid)).json().pedido_id as number;
    const [line] = await linesOf(orderId);
    const part = await post(`/api/orders/${orderId}/alteracoes/`, {
      itens: [{ item_id: line!.item_id, quantidade: 1 }],
      versao: await versionOf(orderId),
    });
    // R$ 50,00 less its 10 %: R$ 45,00, never the price.
    expect(part.json().valor_reembolsado).toBe(45);
    const quote = await post(`/api/orders/${orderId}/alteracoes/cotacao/`, {
      versao: await versionOf(orderId),
    });
    expect(quote.json()).toMatchObject({ a_devolver: (total - 4_500) / 100, novo_total: 0 });
    expect(
      (await post(`/api/orders/${orderId}/alteracoes/`, { versao: await versionOf(orderId) })).statusCode,
    ).toBe(201);
    const { charge } = await chargeOfOrder(orderId);
    expect((await refundsOf(charge.id)).reduce((s, r) => s + r.amountCents, 0)).toBe(total);

    const cardOrder = await paidCardOrder(t.app, buyer, product, 2, undefined, 10);
    const card = await chargeOfOrder(cardOrder);
    expect(card.order.interestCents).toBeGreaterThan(0);
    const whole = await post(`/api/orders/${cardOrder}/alteracoes/cotacao/`, {
      versao: await versionOf(cardOrder),
    });
    // CDC art. 49: the buyer keeps nothing, so the interest comes back too.
    expect(whole.json().a_devolver).toBe(card.charge.amountCents / 100);
    expect(
      (await post(`/api/orders/${cardOrder}/alteracoes/`, { versao: await versionOf(cardOrder) })).statusCode,
    ).toBe(201);
    const refunds = await refundsOf(card.charge.id);
    expect(refunds.reduce((s, r) => s + r.amountCents, 0)).toBe(card.charge.amountCents);
  });

  it('staff swap without the refund permission; removing units still needs it', async () => {
    const { order } = await buy();
    const [blue] = order.items as [{ item_id: number }, { item_id: number }];
    const operator = await createStaffAndLogin(t.app, 'operador');
    const url = `/api/painel/orders/${order.id}/alteracoes/`;
    const versao = await versionOf(order.id);
    const removal = await post(
      url,
      { itens: [{ item_id: blue.item_id, quantidade: 1 }], motivo: 'Sem estoque', versao },
      operator.headers,
    );
    expect(removal.statusCode).toBe(403);
    const swap = await post(
      url,
      {
        trocas: [{ item_id: blue.item_id, quantidade: 1, ...variant(1) }],
        motivo: 'Cliente pediu por telefone',
        versao,
      },
      operator.headers,
    );
    expect(swap.statusCode).toBe(200);
    expect(swap.json().versao).toBeGreaterThan(versao);
    expect(await refundsOf((await chargeOfOrder(order.id)).charge.id)).toEqual([]);
    await waitForMailContaining(t.dataDir, 'Cliente pediu por telefone Troca antes do envio: 1× Camiseta');
  });
});
