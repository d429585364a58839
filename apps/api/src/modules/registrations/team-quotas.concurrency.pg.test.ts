import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeReservations, registrations } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { placesLeft } from '../../test/factories/events.ts';
import { waitingRoomEvent } from '../../test/factories/opening.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { makeTeam } from '../../test/factories/teams.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// A team's quota at an opening (docs/decisions/0076) under a burst: fifty members with the code ask at
// once on two shop processes over one PostgreSQL database, none of them with a turn in the line. The
// quota's row lock counts each taker after the one before committed: exactly the quota gets in.
requirePostgres();

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 30 * MINUTE);
let clock = new Date(T0.getTime() - 5 * MINUTE);

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = { JOBS_ENABLED: 'false' };
  first = await createTestApp({ env, now: () => clock });
  second = await createTestApp({ env, database: first.database, now: () => clock });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

it('fifty members claim a quota of twelve at once from two processes: twelve registered, the public’s eight untouched', async () => {
  const admin = await createStaffAndLogin(first.app, 'admin');
  const event = await waitingRoomEvent(first.app, admin, {
    name: 'Corrida da Cota Concorrida',
    opensAt: T0,
    setClock: (at) => {
      clock = at;
    },
    categories: [{ name: '10 km', priceCents: 8000 }],
    buyers: [],
    perBuyer: 1,
    perCpf: 1,
  });
  await second.app.opening.refresh();
  const tenK = event.days[0]!.categories[0]!.id;
  // The factory's race has 20 places; the quota takes twelve for the team (fewer than the places, so
  // only the quota's own count can stop the burst at twelve).
  const captain = await createUserAndToken(first.app);
  const team = await makeTeam(first.app, captain, 'Assessoria da Largada em Massa', event.id);
  const saved = await first.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/cotas-equipes/`,
    headers: admin.headers,
    payload: { codigo: team.codigo, categoria: tenK, vagas: 12 },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const before = await placesLeft(first.app.db, tenK);

  const runner = participantsFrom(737_700_000);
  const members = await Promise.all(Array.from({ length: 50 }, () => createUserAndToken(first.app)));
  const answers = await Promise.all(
    members.map((m, i) =>
      registrationPix(
        (i % 2 ? second : first).app,
        runner(event, `Membro ${i + 1} Cota`, tenK, { equipe_codigo: team.codigo }),
        80,
        m.headers,
      ),
    ),
  );
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(12);
  expect(codes.filter((c) => c === 409)).toHaveLength(38);
  // The ones past the quota met the line (no turn) or, racing, the quota's own count.
  for (const refused of answers.filter((a) => a.statusCode === 409))
    expect(['fora_da_vez', 'cota_esgotada', 'esgotado']).toContain(refused.json().code);

  // Twelve places held, each marked with the quota; none of the public's was taken.
  const held = await first.app.db
    .select()
    .from(placeReservations)
    .where(
      and(
        eq(placeReservations.categoryId, tenK),
        isNull(placeReservations.releasedAt),
        isNotNull(placeReservations.teamQuotaId),
      ),
    );
  expect(held).toHaveLength(12);
  expect(await placesLeft(first.app.db, tenK)).toBe(before - 12);
  const page = (await first.app.inject({ method: 'GET', url: `/api/events/${event.id}/` })).json();
  expect(page.dias_evento[0].categorias[0].quantidade_disponivel).toBe(before - 12);

  // All paid: twelve registrations of the team.
  for (const a of answers.filter((x) => x.statusCode === 201))
    expect((await simulatePixPaid(first.app, a.json().txid)).statusCode).toBe(200);
  const rows = await first.app.db.select().from(registrations).where(eq(registrations.teamId, team.id));
  expect(rows).toHaveLength(12);
  expect(await placesLeft(first.app.db, tenK)).toBe(before - 12);
});
