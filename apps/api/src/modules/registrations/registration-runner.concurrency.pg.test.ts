import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, registrationChanges } from '../../db/schema/index.ts';
import { makeEvent, placesLeft } from '../../test/factories/events.ts';
import { chargeByTxid, makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Cancellations sent at once by connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

const TODAY = '2026-11-22';

describe('a runner cancelling on PostgreSQL, concurrently', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00Z') });
  });
  afterAll(() => t.close());

  it('ten simultaneous cancellations of one registration: one refund, one place back, one history line', async () => {
    const event = await makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 10 }]],
    });
    const categoryId = event.days[0]!.categories[0]!.id;
    const runner = await makeUser(t.app);
    const created = await registrationPix(
      t.app,
      participant(event, [categoryId], { cpf: cpfFrom(930000000) }),
      50,
      runner.headers,
    );
    expect(created.statusCode).toBe(201);
    const paid = await simulatePixPaid(t.app, created.json().txid);
    const id = paid.json().inscricao_id as number;
    expect(await placesLeft(t.app.db, categoryId)).toBe(9);

    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/api/inscricoes/${id}/cancelar/`,
          headers: runner.headers,
          payload: { valor_devolvido: 50 },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    const charge = await chargeByTxid(t.app, created.json().txid);
    const refunds = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds.map((r) => r.amountCents)).toEqual([5000]);
    expect(await placesLeft(t.app.db, categoryId)).toBe(10);
    const history = await t.app.db
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    expect(history).toHaveLength(1);
  });
});
