import { randomUUID } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  fiscalDocumentRegistrations,
  fiscalDocuments,
  fiscalRegistrationWaits,
} from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { saveFiscalSettings } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

/**
 * A fixed clock late in a month (never the wall clock): the second test registers after the first moved
 * the clock to the next month's 2nd, on an event made on the clock's day.
 */
const clock = { now: new Date('2026-03-27T12:00:00-03:00') };
/** An event made on the app clock's day in Fortaleza, its registration open from then on. */
const eventNamed = (name: string) =>
  makeEvent(t.app.db, { name, today: dateInTimeZone(clock.now, STORE_TIME_ZONE) });
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { NFSE_GROUPING: 'event_month' }, now: () => clock.now });
  await saveFiscalSettings(t.app, (await createStaffAndLogin(t.app, 'admin')).headers);
});
afterAll(() => t.close());

it('the monthly job and five "Emitir agora" at once make one NFS-e per event and month, each registration in it once', async () => {
  const event = await eventNamed('Corrida Mensal Concorrida');
  for (const base of [883_000_001, 883_000_002, 883_000_003]) {
    const runner = await makeBuyer(t.app);
    const res = await registrationCard(t.app, {
      number: '4111111111111111',
      draft: participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(base) }),
      total: 89.9,
      user: runner,
      key: randomUUID(),
    });
    expect(res.statusCode).toBe(200);
  }
  const mes = dateInTimeZone(clock.now, STORE_TIME_ZONE).slice(0, 7);
  const [y, m] = mes.split('-').map(Number) as [number, number];
  clock.now = new Date(Date.UTC(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 2, 15));
  const staff = await Promise.all(Array.from({ length: 5 }, () => createStaffAndLogin(t.app, 'gerente')));

  const answers = await Promise.all([
    t.app.fiscal.issueEventMonth(mes),
    ...staff.map((s) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/fiscal/nfse-mensal/',
        headers: s.headers,
        payload: { mes },
      }),
    ),
  ]);
  for (const a of answers.slice(1)) expect((a as { statusCode: number }).statusCode).toBe(202);
  const docs = await t.app.db.select().from(fiscalDocuments).where(eq(fiscalDocuments.eventId, event.id));
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ period: mes, amountCents: 3 * 8990 });
  const links = await t.app.db
    .select()
    .from(fiscalDocumentRegistrations)
    .where(eq(fiscalDocumentRegistrations.documentId, docs[0]!.id));
  expect(links).toHaveLength(3);
});

it('after the switch back to registration, two copies sweeping at once (and the registration jobs) make each waiting registration’s nota once', async () => {
  const event = await eventNamed('Corrida da Troca Concorrida');
  const ids: number[] = [];
  for (const base of [889_000_001, 889_000_002, 889_000_003, 889_000_004]) {
    const runner = await makeBuyer(t.app);
    const res = await registrationCard(t.app, {
      number: '4111111111111111',
      draft: participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(base) }),
      total: 89.9,
      user: runner,
      key: randomUUID(),
    });
    expect(res.statusCode).toBe(200);
    ids.push((res.json().inscricao_id ?? res.json().id) as number);
  }
  await vi.waitFor(
    async () => {
      const waits = await t.app.db
        .select()
        .from(fiscalRegistrationWaits)
        .where(inArray(fiscalRegistrationWaits.registrationId, ids));
      expect(waits).toHaveLength(4);
    },
    { timeout: 45_000, interval: 250 },
  );

  // Two copies of the shop now started with NFSE_GROUPING=registration on the same database.
  const copies = await Promise.all(
    [0, 1].map(() =>
      createTestApp({ env: { NFSE_GROUPING: 'registration' }, now: () => clock.now, database: t.database }),
    ),
  );
  try {
    await Promise.all([
      ...copies.flatMap((c) => [c.app.fiscal.issueWaiting(), c.app.fiscal.issueWaiting()]),
      ...ids.map((id, i) => copies[i % 2]!.app.fiscal.issueRegistration(id)),
    ]);
    const docs = await t.app.db
      .select()
      .from(fiscalDocuments)
      .where(inArray(fiscalDocuments.registrationId, ids));
    expect(docs.map((d) => d.registrationId).sort()).toEqual([...ids].sort());
    expect(new Set(docs.map((d) => d.number)).size).toBe(4);
    await vi.waitFor(
      async () => {
        const now = await t.app.db
          .select({ status: fiscalDocuments.status })
          .from(fiscalDocuments)
          .where(inArray(fiscalDocuments.registrationId, ids));
        expect(now.map((d) => d.status)).toEqual(['autorizada', 'autorizada', 'autorizada', 'autorizada']);
      },
      { timeout: 30_000, interval: 250 },
    );
    const grouped = await t.app.db
      .select()
      .from(fiscalDocumentRegistrations)
      .where(inArray(fiscalDocumentRegistrations.registrationId, ids));
    expect(grouped).toEqual([]);
  } finally {
    // The copies share the file's database: only their apps close here.
    for (const c of copies) await c.app.close();
  }
});
