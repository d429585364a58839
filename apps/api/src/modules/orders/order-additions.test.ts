import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, orders } from '../../db/schema/index.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  createOrderPix,
  makeBuyer,
  makeShirtAndBuyer,
  orderDraft,
  paidTwoLineOrder,
  shelfUnits,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T12:00:00Z');

/**
 * Adding units to an order before it ships (docs/decisions/0087): an addition is an order of its own,
 * paid with its own charge at today's price and no shipping, that travels in the first order's parcel;
 * every later change (withdrawal, cancellation, return) goes through the order's one door as for any
 * order, and its money back comes from its own charge.
 */
describe('adding units to an order before it ships', () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let product: MadeProduct;
  let staff: TestStaff;

  beforeAll(async () => {
    ({ buyer, product } = await makeShirtAndBuyer(t.app, 'Camiseta Acréscimo'));
    staff = await createStaffAndLogin(t.app, 'admin');
  });

  /** The addition's draft: `units` of the shirt's black G, joined to `orderId`. */
  const additionDraft = (orderId: number, units = 1, extra: object = {}) => {
    const {
      address_id: _a,
      frete: _f,
      ...rest
    } = orderDraft(buyer, [{ product, quantity: units, stockIndex: 1 }]);
    return { ...rest, complemento_de: orderId, ...extra };
  };
  const payAddition = async (orderId: number, units = 1) => {
    const created = await createOrderPix(t.app, buyer.headers, additionDraft(orderId, units), 5000 * units);
    expect(created.statusCode, created.body).toBe(201);
    return created.json().txid as string;
  };
  const myOrders = async (headers = buyer.headers) =>
    (await t.app.inject({ method: 'GET', url: '/api/orders/', headers })).json() as Array<{
      id: number;
      status: string;
      frete: number;
      total: number;
      servico_frete: string | null;
      address: unknown;
      complemento_de?: number;
      complementos?: number[];
      codigo_rastreio?: string | null;
      items: Array<{ quantity: number; product_color: string }>;
    }>;
  const staffGet = (url: string) =>
    t.app.inject({ method: 'GET', url: `/api/painel${url}`, headers: staff.headers });
  const staffPost = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: staff.headers, payload });
  const rowOf = async (id: number) => (await t.app.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  it('charges today’s price without shipping, joins the first order’s parcel and moves with it', async () => {
    const { order } = await paidTwoLineOrder(t.app, buyer, product);
    const blackBefore = await shelfUnits(t.app, product, 1);

    // The browser's total must be the server's: the units alone, no shipping.
    const wrong = await createOrderPix(t.app, buyer.headers, additionDraft(order.id), 5000 + 2000);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'total_divergente', total_correto: 50 });

    const paid = await simulatePixPaid(t.app, await payAddition(order.id));
    expect(paid.statusCode, paid.body).toBe(200);
    const additionId = paid.json().pedido_id as number;
    expect(await shelfUnits(t.app, product, 1)).toBe(blackBefore - 1);

    const mine = await myOrders();
    const first = mine.find((o) => o.id === order.id)!;
    const addition = mine.find((o) => o.id === additionId)!;
    expect(first.complementos).toEqual([additionId]);
    expect(addition).toMatchObject({
      complemento_de: order.id,
      frete: 0,
      total: 50,
      status: 'pago',
      servico_frete: first.servico_frete,
      address: first.address,
    });
    expect(addition.items).toEqual([expect.objectContaining({ quantity: 1, product_color: 'Preto' })]);
    const mail = await waitForMailContaining(
      t.dataDir,
      `Este pedido é um acréscimo ao pedido nº ${order.id}: os itens vão na mesma caixa, sem frete.`,
    );
    expect(mail).toContain(`pedido nº ${additionId} confirmado`);
    expect(mail).not.toContain('Frete (');

    // Staff read it on the first order: the addition, a note for whoever packs, the slip's lines.
    const detail = (await staffGet(`/orders/${order.id}/`)).json();
    expect(detail.complementos).toEqual([{ id: additionId, status: 'pago', unidades: 1 }]);
    expect(detail.notas.map((n: { texto: string }) => n.texto)).toContainEqual(
      `Acréscimo pago (pedido nº ${additionId}): 1× Camiseta Acréscimo (Preto, G). Vai na mesma caixa deste pedido.`,
    );
    expect((await staffGet(`/orders/${additionId}/`)).json().complemento_de).toBe(order.id);
    const slip = (await staffGet(`/orders/${order.id}/romaneio/`)).json();
    expect(slip.itens.map((i: { nome: string; quantidade: number }) => [i.nome, i.quantidade])).toEqual([
      ['Camiseta Acréscimo', 2],
      ['Camiseta Acréscimo', 1],
      [`Camiseta Acréscimo (acréscimo, pedido nº ${additionId})`, 1],
    ]);

    // It never moves alone while its order ships; it moves with it, with the same tracking code.
    const alone = await staffPost(`/orders/${additionId}/status/`, { status: 'em separação' });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().code).toBe('acrescimo_segue_pedido');
    const packing = await staffPost(`/orders/${order.id}/status/`, { status: 'em separação' });
    expect(packing.statusCode, packing.body).toBe(200);
    expect((await rowOf(additionId)).status).toBe('em separação');
    const shipped = await staffPost(`/orders/${order.id}/status/`, {
      status: 'enviado',
      codigo_rastreio: 'AA123456785BR',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(await rowOf(additionId)).toMatchObject({ status: 'enviado', trackingCode: 'AA123456785BR' });

    // Shipped: nothing more joins it.
    const late = await createOrderPix(t.app, buyer.headers, additionDraft(order.id), 5000);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('acrescimo_indisponivel');
  });

  it('refuses another buyer’s order, an addition to an addition and a coupon', async () => {
    const { order } = await paidTwoLineOrder(t.app, buyer, product);
    const stranger = await makeBuyer(t.app);
    const foreign = await createOrderPix(t.app, stranger.headers, additionDraft(order.id), 5000);
    expect(foreign.statusCode).toBe(404);

    const coupon = await createOrderPix(
      t.app,
      buyer.headers,
      additionDraft(order.id, 1, { cupom: 'X' }),
      5000,
    );
    expect(coupon.statusCode).toBe(400);
    expect(JSON.stringify(coupon.json())).toContain('O cupom não vale para um acréscimo ao pedido.');

    const paid = await simulatePixPaid(t.app, await payAddition(order.id));
    const additionId = paid.json().pedido_id as number;
    const chained = await createOrderPix(t.app, buyer.headers, additionDraft(additionId), 5000);
    expect(chained.statusCode).toBe(409);
    expect(chained.json().detail ?? chained.json().message).toContain(`pedido nº ${order.id}`);
  });

  it('paid after its order was cancelled, the whole payment goes back and nothing is sold', async () => {
    const { order } = await paidTwoLineOrder(t.app, buyer, product);
    const txid = await payAddition(order.id);
    const blackBefore = await shelfUnits(t.app, product, 1);
    const cancelled = await staffPost(`/orders/${order.id}/status/`, {
      status: 'cancelado',
      motivo: 'teste',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    await simulatePixPaid(t.app, txid);
    const [charge] = await t.app.db.select().from(charges).where(eq(charges.txid, txid));
    const refunds = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds.map((r) => r.amountCents)).toEqual([5000]);
    expect((await myOrders()).some((o) => o.complemento_de === order.id)).toBe(false);
    // The held unit is back on the shelf (the first order's units came back with its cancellation).
    expect(await shelfUnits(t.app, product, 1)).toBe(blackBefore + 1 + 1);
  });

  it('withdrawn by the buyer, its own charge pays back and the first order stays whole', async () => {
    const { order, txid: firstTxid } = await paidTwoLineOrder(t.app, buyer, product);
    const paid = await simulatePixPaid(t.app, await payAddition(order.id, 2));
    const additionId = paid.json().pedido_id as number;

    const withdrawn = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${additionId}/desistencia/`,
      headers: buyer.headers,
      payload: {},
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(201);
    const addition = await rowOf(additionId);
    expect(addition.status).toBe('cancelado');
    const back = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, addition.chargeId));
    expect(back.reduce((sum, r) => sum + r.amountCents, 0)).toBe(10_000);
    const [firstCharge] = await t.app.db.select().from(charges).where(eq(charges.txid, firstTxid));
    expect(
      await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, firstCharge!.id)),
    ).toEqual([]);
    expect((await rowOf(order.id)).status).toBe('pago');
    const detail = (await staffGet(`/orders/${order.id}/`)).json();
    expect(detail.complementos).toEqual([]);
    const slip = (await staffGet(`/orders/${order.id}/romaneio/`)).json();
    expect(slip.itens).toHaveLength(2);
  });

  it('staff propose an addition by e-mail: nothing held or charged, the link opens it filled in, the buyer pays it', async () => {
    const { order } = await paidTwoLineOrder(t.app, buyer, product);
    const black = product.stock[1]!;
    const before = await shelfUnits(t.app, product, 1);
    const proposal = { produto: product.id, cor_id: black.colorId, tamanho_id: black.sizeId, quantidade: 2 };

    // A role without orders, another product, too many units: refused.
    const volunteer = await createStaffAndLogin(t.app, 'checkin');
    const denied = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${order.id}/acrescimo/`,
      headers: volunteer.headers,
      payload: proposal,
    });
    expect(denied.statusCode).toBe(403);
    const other = await makeShirtAndBuyer(t.app, 'Bermuda Fora do Pedido');
    const foreign = await staffPost(`/orders/${order.id}/acrescimo/`, {
      ...proposal,
      produto: other.product.id,
      cor_id: other.product.stock[0]!.colorId,
      tamanho_id: other.product.stock[0]!.sizeId,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('produto_fora_do_pedido');
    expect(
      (await staffPost(`/orders/${order.id}/acrescimo/`, { ...proposal, quantidade: 11 })).statusCode,
    ).toBe(400);

    const offered = await staffPost(`/orders/${order.id}/acrescimo/`, proposal);
    expect(offered.statusCode, offered.body).toBe(201);
    const { email, total, link } = offered.json();
    expect(email).toBe(buyer.email);
    expect(total).toBe(100);
    const url = new URL(link);
    expect(url.pathname).toBe('/user/pedidos');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      acrescentar: String(order.id),
      produto: String(product.id),
      cor: String(black.colorId),
      tamanho: String(black.sizeId),
      unidades: '2',
    });
    expect(await shelfUnits(t.app, product, 1)).toBe(before);
    const mail = await waitForMailContaining(t.dataDir, `acréscimo ao seu pedido nº ${order.id}`);
    expect(mail).toContain('2× Camiseta Acréscimo (Preto, G), por R$');
    expect(mail).toContain(`/user/pedidos?acrescentar=${order.id}&produto=${product.id}&`);
    const notes = (await staffGet(`/orders/${order.id}/`))
      .json()
      .notas.map((n: { texto: string }) => n.texto);
    expect(notes).toContainEqual(
      expect.stringMatching(/^Acréscimo proposto ao cliente por e-mail: 2× Camiseta/),
    );

    // The buyer pays what the link names, as an addition of their own.
    const paid = await simulatePixPaid(t.app, await payAddition(order.id, 2));
    expect((await rowOf(paid.json().pedido_id)).complementOfId).toBe(order.id);

    // Once the order ships, staff can no longer propose one.
    await staffPost(`/orders/${order.id}/status/`, { status: 'em separação' });
    await staffPost(`/orders/${order.id}/status/`, { status: 'enviado', codigo_rastreio: 'AA123456785BR' });
    const late = await staffPost(`/orders/${order.id}/acrescimo/`, proposal);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('acrescimo_indisponivel');
  });
});
