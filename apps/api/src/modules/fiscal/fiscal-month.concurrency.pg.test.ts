import { randomUUID } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fiscalDocumentRegistrations, fiscalDocuments } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { saveFiscalSettings } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Real row locks and connections that race: PostgreSQL only (npm test provides one).
requirePostgres();

const clock = { now: new Date() };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { NFSE_GROUPING: 'event_month' }, now: () => clock.now });
  await saveFiscalSettings(t.app, (await createStaffAndLogin(t.app, 'admin')).headers);
});
afterAll(() => t.close());

it('the monthly job and five "Emitir agora" at once make one NFS-e per event and month, each registration in it once', async () => {
  const event = await makeEvent(t.app.db, { name: 'Corrida Mensal Concorrida' });
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
