import { beforeAll, describe, expect, it } from 'vitest';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T12:00:00Z');
const at = (hours: number) => new Date(START.getTime() + hours * 3_600_000);

/** The buyer's order carries when it was packed and shipped: the dates of its timeline (docs/product.md §3). */
describe("the order's timeline", () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let staff: TestStaff;
  let product: MadeProduct;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    staff = await createStaffAndLogin(t.app, 'operador');
    product = await makeProduct(t.app.db, {
      name: 'Camiseta Andamento',
      priceCents: 5000,
      stock: [{ color: 'Azul', size: 'M', quantity: 5 }],
    });
  });

  const move = (id: number, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${id}/status/`,
      headers: staff.headers,
      payload,
    });
  const orderOf = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers }))
      .json()
      .find((o: { id: number }) => o.id === id);

  it('answers each move after payment with its instant, never who made it', async () => {
    const draft = orderDraft(buyer, [{ product, quantity: 1 }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    const id = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
    expect((await orderOf(id)).andamento).toBeUndefined();

    t.clock = at(1);
    expect((await move(id, { status: 'em separação', motivo: 'Separado por Rita' })).statusCode).toBe(200);
    t.clock = at(2.5);
    expect((await move(id, { status: 'enviado', codigo_rastreio: 'AB123456785BR' })).statusCode).toBe(200);

    const order = await orderOf(id);
    expect(order.status).toBe('enviado');
    expect(order.andamento).toEqual([
      { status: 'em separação', em: at(1).toISOString() },
      { status: 'enviado', em: at(2.5).toISOString() },
    ]);
    expect(JSON.stringify(order.andamento)).not.toMatch(/Rita|AB123456785BR|staff/);
  });
});
