import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponUses } from '../../db/schema/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import { createOrderPix, draftTotalCents, makeQuickBuyer, orderDraft } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

let t: TestApp;
let staffHeaders: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  staffHeaders = (await createStaffAndLogin(t.app, 'admin')).headers;
});
afterAll(() => t.close());

/**
 * `buyers` people pay at once with a coupon that has `uses` uses left. Each buys a product of their
 * own, so no stock row lock lines them up: only the coupon's own guard can.
 */
async function rush(buyers: number, uses: number) {
  const coupon = await createCoupon(t.app, staffHeaders, { tipo: 'fixo', valor: 10, usos_max: uses });
  const people = await Promise.all(
    Array.from({ length: buyers }, async () => ({
      buyer: await makeQuickBuyer(t.app),
      product: await makeProduct(t.app.db, { priceCents: 10000 }),
    })),
  );
  const drafts = await Promise.all(
    people.map(async ({ buyer, product }) => {
      const draft = orderDraft(buyer, [{ product }]);
      return { buyer, draft, total: await draftTotalCents(t.app, buyer.zipCode, draft, [product]) };
    }),
  );
  const results = await Promise.all(
    drafts.map(({ buyer, draft, total }) =>
      createOrderPix(t.app, buyer.headers, { ...draft, cupom: coupon.codigo }, total - 1000),
    ),
  );
  const held = await t.app.db.select().from(couponUses).where(eq(couponUses.couponId, coupon.id));
  return { results, uses: held };
}

describe('the last use of a coupon', () => {
  it('goes to exactly one of two buyers paying at the same moment (five rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const { results, uses } = await rush(2, 1);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const lost = results.find((r) => r.statusCode === 409)!;
      expect(lost.json()).toMatchObject({ code: 'cupom_esgotado', detail: 'Cupom esgotado.' });
      expect(uses.map((u) => u.status)).toEqual(['reservado']);
    }
  });

  it('is never given beyond the limit when many buyers rush for the last three', async () => {
    const { results, uses } = await rush(10, 3);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
    expect(uses).toHaveLength(3);
  });
});
