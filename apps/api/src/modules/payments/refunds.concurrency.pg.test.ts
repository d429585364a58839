import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds } from '../../db/schema/index.ts';
import {
  chargeByTxid,
  makeFakePurpose,
  makeUser,
  orderPix,
  simulatePixPaid,
} from '../../test/factories/payments.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only.
requirePostgres();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.app.payments.registerPurpose('order', makeFakePurpose({ unitCents: 5000, stock: 100 }).handler);
});
afterAll(() => t.close());

describe('PostgreSQL: staff refunding the same charge at once (docs/decisions/0036)', () => {
  beforeAll(() => {
    console.info(`[refunds] PostgreSQL suite running on ${t.database.kind}.`);
    expect(t.database.kind).toBe('postgres');
  });

  it('20 parts of R$ 30,00 against R$ 100,00 paid: 3 written, 17 refused, paid − refunded ≥ 0', async () => {
    const buyer = await makeUser(t.app);
    const { txid } = (await orderPix(t.app, buyer.headers, 2)).json();
    await simulatePixPaid(t.app, txid);
    const charge = (await chargeByTxid(t.app, txid))!;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        t.app.db.transaction((tx) =>
          t.app.payments.refundPart(tx, charge.id, {
            refundId: `corrida${i}`,
            amountCents: 3000,
            reason: 'Devolução parcial.',
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(17);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'devolucao_acima_do_pago' });
    const rows = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id));
    const refunded = rows.reduce((s, r) => s + r.amountCents, 0);
    expect(refunded).toBe(9000);
    expect(charge.amountCents - refunded).toBeGreaterThanOrEqual(0);
  });

  it('the same refund id asked by two staff at once is written once', async () => {
    const buyer = await makeUser(t.app);
    const { txid } = (await orderPix(t.app, buyer.headers, 1)).json();
    await simulatePixPaid(t.app, txid);
    const charge = (await chargeByTxid(t.app, txid))!;
    const twice = await Promise.all(
      [0, 1].map(() =>
        t.app.db.transaction((tx) =>
          t.app.payments.refundPart(tx, charge.id, { refundId: 'mesmoId1', amountCents: 1000, reason: 'x' }),
        ),
      ),
    );
    expect(twice[0]!.id).toBe(twice[1]!.id);
    const rows = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge.id));
    expect(rows).toHaveLength(1);
  });
});
