import { randomUUID } from 'node:crypto';
import { DEFAULT_AFTER_SALE_RULES } from '@passada/core/after-sale';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chargeRefunds, eventAfterSaleRules, registrations } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { APPROVED_CARD, participantsFrom, registrationCard } from '../../test/factories/registrations.ts';
import { TEAMS_START } from '../../test/factories/teams.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';
import { createReferrals } from './referrals.ts';

// Referral rebates (docs/decisions/0086) reckoned by two shop processes at the same moment over one
// PostgreSQL database, each with its own connections: the referrer's row lock lets one of them pay and
// the other find it paid, so the runner gets the rebate once, never twice.
requirePostgres();

let clock = TEAMS_START;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = {
    JOBS_ENABLED: 'false',
    PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '100000',
    PAYMENTS_RATE_LIMIT_PER_IP: '100000',
  };
  first = await createTestApp({ env, now: () => clock });
  second = await createTestApp({ env, database: first.database, now: () => clock });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

const referralsOf = (t: TestApp) =>
  createReferrals({
    db: t.app.db,
    env: t.env,
    now: () => clock,
    log: t.app.log,
    payments: t.app.payments,
    jobs: t.app.jobs,
    mail: t.app.providers.mail,
    events: t.app.events,
  });

it('two processes reckoning the rebates at once refund each referrer once', async () => {
  const race = await makeEvent(first.app.db, {
    name: 'Corrida da Indicação Concorrida',
    today: '2026-11-24',
    startDate: '2026-12-20',
    registrationDeadline: '2026-12-19',
    days: [[{ name: '10 km', priceCents: 10_000, placesLeft: 100 }]],
    kitSizes: [{ size: 'M', left: 100 }],
  });
  await first.app.db.insert(eventAfterSaleRules).values({
    ...DEFAULT_AFTER_SALE_RULES,
    eventId: race.id,
    referralMin: 2,
    referralPercent: 10,
  });
  const tenK = race.days[0]!.categories[0]!.id;
  const runner = participantsFrom(742_100_000);
  const pay = async (app: TestApp, name: string, indicacao?: string) => {
    const buyer = await makeBuyer(app.app);
    const draft = runner(race, name, tenK, indicacao ? { indicacao } : {});
    const res = await registrationCard(app.app, {
      number: APPROVED_CARD,
      draft,
      total: 100,
      user: buyer,
      key: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await app.app.db.select().from(registrations).where(eq(registrations.cpf, draft.cpf));
    return row!;
  };
  // Five referrers, each with two friends through their link.
  const referrers = [];
  for (let i = 0; i < 5; i++) {
    const referrer = await pay(first, `Indicadora ${i + 1}`);
    const code = referralsOf(first).codeOf(referrer.id);
    await pay(second, `Amigo ${i + 1}A`, code);
    await pay(first, `Amigo ${i + 1}B`, code);
    referrers.push(referrer);
  }
  clock = new Date(TEAMS_START.getTime() + 8 * 86_400_000);
  const paid = await Promise.all([
    referralsOf(first).payRebates(),
    referralsOf(second).payRebates(),
    referralsOf(first).payRebates(),
  ]);
  expect(paid.reduce((a, b) => a + b, 0)).toBe(5);
  for (const r of referrers) {
    const refunds = await first.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, r.chargeId));
    expect(refunds.map((x) => x.amountCents)).toEqual([1000]);
    const [after] = await first.app.db.select().from(registrations).where(eq(registrations.id, r.id));
    expect(after).toMatchObject({ totalCents: 9000, referralRebateCents: 1000 });
  }
});
