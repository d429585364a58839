import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

let t: TestApp;
let operator: TestStaff;
beforeAll(async () => {
  t = await createTestApp();
  operator = await createStaffAndLogin(t.app, 'operador');
});
afterAll(() => t.close());

/** Checkouts of one unit each and stock adjustments, all at once on one combination. */
async function race(units: number, buyers: number, adjustments: number[]) {
  const product = await makeProduct(t.app.db, {
    name: 'Camiseta Corrida Concorrida',
    stock: [{ color: 'Coral', size: 'M', quantity: units }],
  });
  const line = product.stock[0]!;
  const people = await Promise.all(Array.from({ length: buyers }, () => makeQuickBuyer(t.app)));
  const total = await draftTotalCents(t.app, people[0]!.zipCode, orderDraft(people[0]!, [{ product }]), [
    product,
  ]);
  const [checkouts, changes] = await Promise.all([
    Promise.all(people.map((p) => createOrderPix(t.app, p.headers, orderDraft(p, [{ product }]), total))),
    Promise.all(
      adjustments.map((quantidade) =>
        t.app.inject({
          method: 'POST',
          url: '/api/painel/stock/',
          headers: operator.headers,
          payload: {
            product_id: product.id,
            color_id: line.colorId,
            size_id: line.sizeId,
            modo: 'ajustar',
            quantidade,
            motivo: quantidade > 0 ? 'entrada' : 'avaria',
          },
        }),
      ),
    ),
  ]);
  const sold = checkouts.filter((r) => r.statusCode === 201).length;
  const applied = changes.filter((r) => r.statusCode === 200).map((_, i) => adjustments[i]!);
  const final = (await t.app.catalog.getProduct(product.id, { color: line.colorId, size: line.sizeId }))
    .stock[0]!.quantity;
  const history = (
    await t.app.inject({
      method: 'GET',
      url: `/api/painel/stock/history/?product_id=${product.id}&color_id=${line.colorId}&size_id=${line.sizeId}`,
      headers: operator.headers,
    })
  ).json() as Array<{ delta: number; reason: string }>;
  return { sold, applied, final, history, checkouts, changes };
}

describe('stock adjustments during checkouts (PostgreSQL)', () => {
  it('loses no unit: final stock = initial − reserved + adjustments', async () => {
    const adjustments = [3, 3, 3, -1, 3, -1, 3, -1, 3, 3];
    const r = await race(40, 16, adjustments);
    expect(r.sold).toBe(16);
    expect(r.changes.every((c) => c.statusCode === 200)).toBe(true);
    expect(r.final).toBe(40 - 16 + adjustments.reduce((a, b) => a + b, 0));
    const staffMoves = r.history.filter((h) => h.reason === 'entrada' || h.reason === 'avaria');
    expect(staffMoves.map((h) => h.delta).sort()).toEqual([...adjustments].sort());
    // The holds are in the history too, so it adds up to the stock (docs/decisions/0033).
    expect(r.history.filter((h) => h.reason === 'reserva')).toHaveLength(16);
    expect(r.history.reduce((sum, h) => sum + h.delta, 0)).toBe(r.final);
  });

  it('never oversells when entries arrive while the last units go', async () => {
    const adjustments = [2, 2, 2];
    const r = await race(2, 10, adjustments);
    // Whatever the order, what was sold plus what is left equals everything that ever came in.
    expect(r.sold + r.final).toBe(2 + 6);
    expect(r.sold).toBeGreaterThanOrEqual(2);
    expect(r.checkouts.every((c) => c.statusCode === 201 || c.statusCode === 409)).toBe(true);
    expect(r.final).toBeGreaterThanOrEqual(0);
  });

  it('a goods receipt in one batch and carts of the same two sizes in either order: no deadlock, no unit lost (decision 0081)', async () => {
    const product = await makeProduct(t.app.db, {
      name: 'Regata Recebida Concorrida',
      stock: [
        { color: 'Coral', size: 'M', quantity: 6 },
        { color: 'Coral', size: 'G', quantity: 6 },
      ],
    });
    const [m, g] = product.stock;
    const people = await Promise.all(Array.from({ length: 10 }, () => makeQuickBuyer(t.app)));
    // Half the carts list M then G, the other half G then M; the receipts list them both ways too.
    const drafts = people.map((p, i) =>
      orderDraft(
        p,
        i % 2 === 0
          ? [
              { product, stockIndex: 0 },
              { product, stockIndex: 1 },
            ]
          : [
              { product, stockIndex: 1 },
              { product, stockIndex: 0 },
            ],
      ),
    );
    const total = await draftTotalCents(t.app, people[0]!.zipCode, drafts[0]!, [product]);
    const receipt = (first: typeof m, second: typeof m) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/stock/lote/',
        headers: operator.headers,
        payload: {
          modo: 'ajustar',
          motivo: 'entrada',
          linhas: [first, second].map((l) => ({
            product_id: product.id,
            color_id: l!.colorId,
            size_id: l!.sizeId,
            quantidade: 2,
          })),
        },
      });
    const [checkouts, receipts] = await Promise.all([
      Promise.all(people.map((p, i) => createOrderPix(t.app, p.headers, drafts[i]!, total))),
      Promise.all([receipt(m, g), receipt(g, m), receipt(m, g)]),
    ]);
    expect(receipts.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(checkouts.every((c) => c.statusCode === 201 || c.statusCode === 409)).toBe(true);
    const sold = checkouts.filter((c) => c.statusCode === 201).length;
    for (const line of [m!, g!]) {
      const left = (await t.app.catalog.getProduct(product.id, { color: line.colorId, size: line.sizeId }))
        .stock[0]!.quantity;
      // Everything that ever came in is either held by a cart or still on the shelf.
      expect(sold + left).toBe(6 + 3 * 2);
    }
  });
});
