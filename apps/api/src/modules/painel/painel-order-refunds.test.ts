import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The order page's partial refunds (docs/decisions/0040): any part up to what is left, once, by whom. */
describe('partial refunds from the back office order page', () => {
  let t: TestApp;
  let admin: TestStaff;
  let operator: TestStaff;
  let buyer: Buyer;
  let product: MadeProduct;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    buyer = await makeBuyer(t.app);
    product = await makeProduct(t.app.db, { name: 'Bermuda Reembolso', priceCents: 15_000 });
  });
  afterAll(() => t.close());

  const url = (id: number) => `/api/painel/orders/${id}/reembolsos/`;
  const post = (who: TestStaff, id: number, payload: object) =>
    t.app.inject({ method: 'POST', url: url(id), headers: who.headers, payload });

  it('lists paid, refunded and left; refunds parts once each, never above what is left', async () => {
    const draft = orderDraft(buyer, [{ product }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;

    const first = await t.app.inject({ method: 'GET', url: url(orderId), headers: operator.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      metodo: 'pix',
      pago: total / 100,
      reembolsado: 0,
      restante: total / 100,
      reembolsos: [],
    });

    const body = { valor: 10, motivo: 'Brinde que faltou', reembolsos_vistos: 0 };
    expect((await post(operator, orderId, body)).statusCode).toBe(403);
    const part = await post(admin, orderId, body);
    expect(part.statusCode).toBe(200);
    expect(part.json()).toMatchObject({
      reembolsado: 10,
      restante: total / 100 - 10,
      reembolsos: [
        {
          valor: 10,
          por: expect.stringMatching(/^Equipe \d+$/),
          motivo: `Reembolso parcial do pedido nº ${orderId}: Brinde que faltou`,
          id_provedor: `ord${orderId}n1`,
        },
      ],
    });
    expect(t.app.providers.payments.simulator!.refunds().at(-1)).toMatchObject({ amountCents: 1000 });

    // The same screen submitted twice refunds once; another amount from that screen is refused.
    const twice = await post(admin, orderId, body);
    expect(twice.statusCode).toBe(200);
    expect(twice.json().reembolsos).toHaveLength(1);
    const changed = await post(admin, orderId, { ...body, valor: 20 });
    expect(changed.statusCode).toBe(409);
    // Never above what is left; a screen that missed refunds is told to reload.
    const tooMuch = await post(admin, orderId, { ...body, valor: total / 100, reembolsos_vistos: 1 });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('devolucao_acima_do_pago');
    const stale = await post(admin, orderId, { ...body, reembolsos_vistos: 3 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('versao_desatualizada');

    const rest = await post(admin, orderId, {
      valor: total / 100 - 10,
      motivo: 'Cliente desistiu do resto',
      reembolsos_vistos: 1,
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ reembolsado: total / 100, restante: 0 });
    expect(rest.json().reembolsos).toHaveLength(2);
  });
});
