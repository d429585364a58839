import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  chargeRefunds,
  eventCategories,
  registrationCheckins,
  registrations,
} from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Cancellations and check-ins from connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

const TODAY = '2026-11-24';

describe('cancelling registrations on PostgreSQL, concurrently', () => {
  let t: TestApp;
  let admin: TestStaff;
  let operator: TestStaff;
  let cpfSeq = 870_000_000;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-24T13:00:00Z') });
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
  });
  afterAll(() => t.close());

  const placesLeft = async (categoryId: number) =>
    (await t.app.db.select().from(eventCategories).where(eq(eventCategories.id, categoryId)))[0]!.placesLeft;

  /** `n` direct registrations of one category, each paid by Pix by its own account. */
  async function paidRegistrations(n: number) {
    const event = await makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 50 }]],
    });
    const categoryId = event.days[0]!.categories[0]!.id;
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const user = await makeUser(t.app);
      const draft = participant(event, [categoryId], { cpf: cpfFrom(cpfSeq++) });
      const pix = await registrationPix(t.app, draft, 50, user.headers);
      expect(pix.statusCode).toBe(201);
      ids.push((await simulatePixPaid(t.app, pix.json().txid)).json().inscricao_id as number);
    }
    return { eventId: event.id, categoryId, ids };
  }

  const cancel = (who: TestStaff, id: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${id}/cancel/`,
      headers: who.headers,
      payload: {},
    });
  const checkIn = (eventId: number, id: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/painel/checkin/',
      headers: operator.headers,
      payload: { evento: eventId, inscricao: id },
    });

  it('five admins cancel the same registration at once: one refund, the place given back once', async () => {
    const { categoryId, ids } = await paidRegistrations(1);
    const id = ids[0]!;
    expect(await placesLeft(categoryId)).toBe(49);
    const answers = await Promise.all(Array.from({ length: 5 }, () => cancel(admin, id)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    const [row] = await t.app.db.select().from(registrations).where(eq(registrations.id, id));
    expect(row!.cancelledAt).not.toBeNull();
    expect(
      await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, row!.chargeId)),
    ).toHaveLength(1);
    expect(await placesLeft(categoryId)).toBe(50);
  });

  it('a check-in and a cancellation of the same registration at once: exactly one of them happens', async () => {
    const { eventId, categoryId, ids } = await paidRegistrations(8);
    const outcomes = await Promise.all(
      ids.map(async (id, i) => {
        // Alternate which request leaves first.
        const checkinFirst = i % 2 === 1;
        const first = checkinFirst ? checkIn(eventId, id) : cancel(admin, id);
        const second = checkinFirst ? cancel(admin, id) : checkIn(eventId, id);
        const [x, y] = await Promise.all([first, second]);
        const [checkin, cancelled] = checkinFirst ? [x, y] : [y, x];
        return { id, checkin: checkin.statusCode, cancelled: cancelled.statusCode };
      }),
    );
    for (const o of outcomes) expect([o.checkin, o.cancelled].filter((c) => c === 200)).toHaveLength(1);
    const rows = await t.app.db.select().from(registrations).where(inArray(registrations.id, ids));
    const checkins = await t.app.db
      .select()
      .from(registrationCheckins)
      .where(inArray(registrationCheckins.registrationId, ids));
    for (const row of rows) {
      const pickedUp = checkins.some((c) => c.registrationId === row.id);
      // Never both: a cancelled registration has no check-in, a checked-in one is not cancelled.
      expect(pickedUp).toBe(row.cancelledAt === null);
    }
    const cancelledCount = rows.filter((r) => r.cancelledAt !== null).length;
    expect(await placesLeft(categoryId)).toBe(50 - 8 + cancelledCount);
    const refunds = await t.app.db
      .select()
      .from(chargeRefunds)
      .where(
        inArray(
          chargeRefunds.chargeId,
          rows.map((r) => r.chargeId),
        ),
      );
    expect(refunds).toHaveLength(cancelledCount);
  });

  it('five staff undo the same pickup at once: it is undone once, with one audit line', async () => {
    const { eventId, ids } = await paidRegistrations(1);
    const id = ids[0]!;
    const picked = await checkIn(eventId, id);
    expect(picked.statusCode).toBe(200);
    const at = picked.json().retirada.at as string;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/painel/checkin/undo/',
          headers: (i % 2 ? admin : operator).headers,
          payload: { evento: eventId, inscricao: id, retirada_em: at, motivo: `Engano nº ${i}` },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(a.json()).toMatchObject({ code: 'sem_retirada' });
    expect(
      await t.app.db.select().from(registrationCheckins).where(eq(registrationCheckins.registrationId, id)),
    ).toEqual([]);
    const lines = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'kit_retirada_desfeita'), eq(auditLog.entityId, String(id))));
    expect(lines).toHaveLength(1);
    expect((await checkIn(eventId, id)).statusCode).toBe(200);
  });
});
