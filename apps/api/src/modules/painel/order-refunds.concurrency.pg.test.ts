import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only.
requirePostgres();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** docs/decisions/0040: staff refunding from the order page at once never return more than was paid. */
describe('partial refunds from the order page, at once', () => {
  it('six admins on screens that saw the same list: one refund is written, paid − refunded stays ≥ 0', async () => {
    const product = await makeProduct(t.app.db, { name: 'Meia Reembolso Disputado', priceCents: 6_000 });
    const buyer = await makeQuickBuyer(t.app);
    const draft = orderDraft(buyer, [{ product }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
    const admins = await Promise.all(Array.from({ length: 6 }, () => createStaffAndLogin(t.app, 'admin')));

    const results = await Promise.all(
      admins.map((a, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/painel/orders/${orderId}/reembolsos/`,
          headers: a.headers,
          payload: { valor: (total - 100 * i) / 100, motivo: 'Ajuste', reembolsos_vistos: 0 },
        }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.statusCode).toBe(409);
    const summary = (
      await t.app.inject({
        method: 'GET',
        url: `/api/painel/orders/${orderId}/reembolsos/`,
        headers: admins[0]!.headers,
      })
    ).json();
    expect(summary.reembolsos).toHaveLength(1);
    expect(summary.restante).toBeGreaterThanOrEqual(0);
    expect(summary.pago - summary.reembolsado).toBeCloseTo(summary.restante, 2);
  });
});
