import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lotteryEntries } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// A draw's e-mails are queued in pages (several statements of pg-boss's batch insert) inside the
// draw's transaction: every entry is told exactly once per draw that concerns it, with the queue's retry
// policy, across the pages' boundaries.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;
const ENTRIES = 2_345;

let t: TestApp;
let staff: TestStaff;
beforeAll(async () => {
  // No worker: the jobs stay in the queue to be counted.
  t = await createTestApp({ now: () => clock, env: { JOBS_ENABLED: 'false' } });
  staff = await createStaffAndLogin(t.app, 'gerente');
});
afterAll(() => t.close());

type MailJob = { entryId: number; kind: string; retry_limit: number; retry_delay: number };
async function mailJobs(): Promise<MailJob[]> {
  const result = (await t.app.db.execute(
    sql`select (data->>'entryId')::int as "entryId", data->>'kind' as kind, retry_limit, retry_delay
        from pgboss.job where name = 'mail.lottery'`,
  )) as { rows: MailJob[] };
  return result.rows;
}

it('tells every one of thousands of entries once per draw, winners and the others, with the queue’s retry policy', async () => {
  const event = await makeEvent(t.app.db, {
    name: 'Corrida do Sorteio Grande',
    days: [[{ name: '21 km', priceCents: 9000, placesLeft: 1_000 }]],
  });
  const category = event.days[0]!.categories[0]!.id;
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: staff.headers,
    payload: {
      modo: 'sorteio',
      abre_em: T0.toISOString(),
      pre_fila_minutos: 0,
      admitidos_por_minuto: null,
      minutos_da_vez: 15,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 4,
      sorteio: {
        inscricoes_de: T0.toISOString(),
        inscricoes_ate: new Date(T0.getTime() + 60 * MINUTE).toISOString(),
        vagas: 1_000,
        horas_para_pagar: 2,
      },
    },
  });
  expect(saved.statusCode).toBe(200);
  const commit = await t.app.inject({
    method: 'POST',
    url: `/api/painel/events/${event.id}/sorteio/compromisso/`,
    headers: staff.headers,
  });
  expect(commit.statusCode).toBe(200);
  // Thousands of entries, written straight to the table (the entry route is tested elsewhere).
  const runner = await makeUser(t.app);
  await t.app.db.insert(lotteryEntries).values(
    Array.from({ length: ENTRIES }, (_, i) => ({
      eventId: event.id,
      categoryId: category,
      userId: runner.id,
      fullName: `Corredora ${i}`,
      cpf: cpfFrom(736_000_000 + i),
      email: `grande${i}@example.com`,
      birthDate: '1990-01-01',
    })),
  );
  const ids = (await t.app.db.select({ id: lotteryEntries.id }).from(lotteryEntries)).map((r) => r.id);
  expect(ids).toHaveLength(ENTRIES);

  clock = new Date(T0.getTime() + 61 * MINUTE);
  const draw = () =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/sorteio/sortear/`,
      headers: staff.headers,
    });
  const first = await draw();
  expect(first.statusCode).toBe(200);
  const winners = new Set(
    (await t.app.db.select().from(lotteryEntries)).filter((e) => e.wonInDraw === 1).map((e) => e.id),
  );
  expect(winners.size).toBe(1_000);
  const jobs = await mailJobs();
  expect(jobs).toHaveLength(ENTRIES);
  expect(new Set(jobs.map((j) => j.entryId))).toEqual(new Set(ids));
  for (const j of jobs) expect(j.kind).toBe(winners.has(j.entryId) ? 'sorteado' : 'nao_sorteado');
  // The queue's own retry policy (job-catalog.ts), as a job sent alone would have.
  expect(new Set(jobs.map((j) => `${j.retry_limit}/${j.retry_delay}`))).toEqual(new Set(['8/60']));

  // The deadline passes unpaid: a further draw tells only its new winners, once each.
  clock = new Date(clock.getTime() + 3 * HOUR);
  expect((await draw()).statusCode).toBe(200);
  const again = await mailJobs();
  expect(again).toHaveLength(ENTRIES + 1_000);
  const second = (await t.app.db.select().from(lotteryEntries))
    .filter((e) => e.wonInDraw === 2)
    .map((e) => e.id);
  const told = again.filter((j) => j.kind === 'sorteado' && !winners.has(j.entryId)).map((j) => j.entryId);
  expect(told.sort((a, b) => a - b)).toEqual(second.sort((a, b) => a - b));
  expect(again.filter((j) => j.kind === 'nao_sorteado')).toHaveLength(ENTRIES - 1_000);
});
