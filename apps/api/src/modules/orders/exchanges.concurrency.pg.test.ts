import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockMovements } from '../../db/schema/index.ts';
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

/** docs/decisions/0040: exchanges racing for the last unit of a size: one holds it, the others are told. */
describe('exchanges racing for the last unit', () => {
  it('five buyers exchange for the one G left at once: exactly one gets it, the stock never goes below zero', async () => {
    const product = await makeProduct(t.app.db, {
      name: 'Regata Troca Disputada',
      stock: [
        { color: 'Verde', size: 'M', quantity: 10 },
        { color: 'Verde', size: 'G', quantity: 1 },
      ],
    });
    const g = product.stock[1];
    const operator = await createStaffAndLogin(t.app, 'operador');
    const staffPost = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: operator.headers, payload });

    const buyers = await Promise.all(Array.from({ length: 5 }, () => makeQuickBuyer(t.app)));
    const orders: Array<{ headers: Record<string, string>; orderId: number; itemId: number }> = [];
    for (const buyer of buyers) {
      const draft = orderDraft(buyer, [{ product }]);
      const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
      const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
      const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
      for (const step of [
        { status: 'em separação' },
        { status: 'enviado', codigo_rastreio: 'AA123456785BR' },
        { status: 'entregue' },
      ])
        expect((await staffPost(`/orders/${orderId}/status/`, step)).statusCode).toBe(200);
      const list = (
        await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })
      ).json();
      const itemId = list.find((o: { id: number }) => o.id === orderId).items[0].item_id as number;
      orders.push({ headers: buyer.headers, orderId, itemId });
    }

    const results = await Promise.all(
      orders.map((o) =>
        t.app.inject({
          method: 'POST',
          url: `/api/orders/${o.orderId}/trocas/`,
          headers: o.headers,
          payload: {
            itens: [{ item_id: o.itemId, quantidade: 1, cor_id: g!.colorId, tamanho_id: g!.sizeId }],
            motivo: 'arrependimento',
          },
        }),
      ),
    );
    const won = results.filter((r) => r.statusCode === 201);
    const lost = results.filter((r) => r.statusCode === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(4);
    for (const r of lost) expect(r.json().code).toBe('estoque_insuficiente');
    const left = (await t.app.catalog.getProduct(product.id, { color: g!.colorId, size: g!.sizeId }))
      .stock[0]!.quantity;
    expect(left).toBe(0);
    const holds = await t.app.db
      .select()
      .from(stockMovements)
      .where(and(eq(stockMovements.productId, product.id), eq(stockMovements.reason, 'troca_reserva')));
    expect(holds).toHaveLength(1);
    // The losers wrote nothing: no request, their unit still theirs to return or exchange.
    for (const [i, o] of orders.entries()) {
      if (results[i]!.statusCode !== 409) continue;
      const offer = (
        await t.app.inject({ method: 'GET', url: `/api/orders/${o.orderId}/pos-venda/`, headers: o.headers })
      ).json();
      expect(offer.solicitacoes).toEqual([]);
      expect(offer.restantes).toEqual([{ item_id: o.itemId, quantidade: 1 }]);
    }
  });
});
