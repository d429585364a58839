import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges } from '../../db/schema/index.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import type { MadeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  makeBuyer,
  makeShirtAndBuyer,
  paidTwoLineOrder,
  shelfUnits,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T12:00:00Z');

/** The buyer withdraws before shipping (CDC art. 49, docs/decisions/0036): by item, then the rest. */
describe('withdrawal before shipping', () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let other: Buyer;
  let product: MadeProduct;

  beforeAll(async () => {
    ({ buyer, product } = await makeShirtAndBuyer(t.app, 'Camiseta Desistência'));
    other = await makeBuyer(t.app);
  });

  const stockOf = (i: number) => shelfUnits(t.app, product, i);
  const afterSale = (id: number, headers = buyer.headers) =>
    t.app.inject({ method: 'GET', url: `/api/orders/${id}/pos-venda/`, headers });
  const withdraw = (id: number, payload: object, headers = buyer.headers) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${id}/desistencia/`, headers, payload });
  const refundsOf = async (orderTxid: string) => {
    const [c] = await t.app.db.select().from(charges).where(eq(charges.txid, orderTxid));
    return {
      charge: c!,
      refunds: await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, c!.id)),
    };
  };

  const buy = () => paidTwoLineOrder(t.app, buyer, product);

  it('one unit first (its value back, stock back), then the rest: shipping and all that is left', async () => {
    const { txid, total, order } = await buy();
    const [blue, black] = order.items as [{ item_id: number }, { item_id: number }];
    expect(await stockOf(0)).toBe(8);

    const offer = (await afterSale(order.id)).json();
    expect(offer).toMatchObject({
      pode_desistir: true,
      pode_devolver: false,
      reembolsado: 0,
      pago: total / 100,
    });

    const first = await withdraw(order.id, {
      itens: [{ item_id: blue.item_id, quantidade: 1 }],
      motivo: 'Comprei a mais',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      tipo: 'desistencia',
      status: 'reembolsada',
      valor_reembolsado: 50,
      itens: [{ item_id: blue.item_id, quantidade: 1, valor: 50 }],
    });
    expect(await stockOf(0)).toBe(9);
    const simulated = t.app.providers.payments.simulator!.refunds();
    expect(simulated.at(-1)).toMatchObject({ amountCents: 5000 });
    await waitForMailContaining(
      t.dataDir,
      `Confirmamos o recebimento da sua desistência da compra (pedido nº ${order.id}`,
    );

    // More than is left of a line is refused, nothing written.
    const tooMany = await withdraw(order.id, { itens: [{ item_id: blue.item_id, quantidade: 2 }] });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toMatch(/Restam 1 unidade/);

    // Someone else's order does not exist for them.
    expect((await withdraw(order.id, {}, other.headers)).statusCode).toBe(404);
    expect((await afterSale(order.id, other.headers)).statusCode).toBe(404);

    // The rest: the order is cancelled and everything left of the payment goes back.
    const rest = await withdraw(order.id, {});
    expect(rest.statusCode).toBe(201);
    expect(rest.json().valor_reembolsado).toBe((total - 5000) / 100);
    expect(rest.json().itens).toEqual([
      expect.objectContaining({ item_id: blue.item_id, quantidade: 1 }),
      expect.objectContaining({ item_id: black.item_id, quantidade: 1 }),
    ]);
    expect(await stockOf(0)).toBe(10);
    expect(await stockOf(1)).toBe(10);
    const { charge, refunds } = await refundsOf(txid);
    expect(charge.status).toBe('DEVOLVIDA');
    expect(refunds.reduce((s, r) => s + r.amountCents, 0)).toBe(total);

    const after = (await afterSale(order.id)).json();
    expect(after).toMatchObject({ pode_desistir: false, reembolsado: total / 100 });
    expect(after.solicitacoes).toHaveLength(2);
    const orders = (
      await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })
    ).json();
    expect(orders.find((o: { id: number }) => o.id === order.id).status).toBe('cancelado');

    const again = await withdraw(order.id, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Este pedido já foi cancelado.');
  });

  it('withdrawing the whole order cancels the shipping label already bought (docs/decisions/0048)', async () => {
    const { order } = await buy();
    const staff = await createStaffAndLogin(t.app, 'estoque');
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/painel/orders/labels/',
      headers: staff.headers,
      payload: { pedidos: [{ id: order.id }] },
    });
    expect(bought.json().resultados[0]).toMatchObject({ situacao: 'comprada' });
    const label = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/orders/${order.id}/etiqueta/`,
          headers: staff.headers,
        })
      ).json();

    expect((await withdraw(order.id, {})).statusCode).toBe(201);
    await expect.poll(async () => (await label()).situacao, { timeout: 45_000 }).toBe('cancelada');
    expect((await label()).cancelamento_recusado).toBeNull();
  });

  it('once shipped, withdrawal is refused with the reason', async () => {
    const { order } = await buy();
    await t.app.db.transaction(async (tx) => {
      await t.app.orders.admin.changeStatus(tx, order.id, { status: 'em separação' }, { name: 'Ana' });
      await t.app.orders.admin.changeStatus(
        tx,
        order.id,
        { status: 'enviado', trackingCode: 'AA123456785BR' },
        { name: 'Ana' },
      );
    });
    const res = await withdraw(order.id, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/já foi enviado/);
    expect((await afterSale(order.id)).json()).toMatchObject({ pode_desistir: false, pode_devolver: false });
  });
});
