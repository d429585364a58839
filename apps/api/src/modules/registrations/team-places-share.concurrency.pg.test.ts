import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeReservations, registrations, teamPlaceBatches } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { makeEvent, placesLeft } from '../../test/factories/events.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START } from '../../test/factories/teams.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// A team's places paid in part (docs/decisions/0079) under a burst: thirty members pay their part at
// once on two shop processes over one PostgreSQL database, for a purchase of eight places. The batch's
// row lock hands each place over once: exactly eight charges hold one, nobody takes a place from the
// public, and the captain's charge is left with none.
requirePostgres();

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = {
    JOBS_ENABLED: 'false',
    PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '100000',
    PAYMENTS_RATE_LIMIT_PER_IP: '100000',
  };
  first = await createTestApp({ env, now: () => TEAMS_START });
  second = await createTestApp({ env, database: first.database, now: () => TEAMS_START });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

it('thirty members pay their part of eight places at once from two processes: eight hold one, none oversold', async () => {
  const race = await makeEvent(first.app.db, {
    name: 'Meia da Empresa Concorrida',
    today: '2026-11-24',
    startDate: '2026-11-28',
    registrationDeadline: '2026-11-27',
    days: [[{ name: '21 km', priceCents: 12_000, placesLeft: 40 }]],
    kitSizes: [{ size: 'M', left: 100 }],
  });
  const half = race.days[0]!.categories[0]!.id;
  const captain = await createUserAndToken(first.app);
  const team = await makeTeam(first.app, captain, 'Empresa da Largada em Massa', race.id);
  // The team pays 50 % of each of eight places: R$ 60 each; each member pays the other R$ 60.
  const pix = await first.app.inject({
    method: 'POST',
    url: '/api/pagar-pix/',
    headers: captain.headers,
    payload: {
      total: 480,
      finalidade: 'vagas_equipe',
      vagas_equipe: { equipe: team.id, categoria: half, quantidade: 8, percentual: 50 },
    },
  });
  expect(pix.statusCode, pix.body).toBe(201);
  expect((await simulatePixPaid(first.app, pix.json().txid)).statusCode).toBe(200);
  const [batch] = await first.app.db
    .select()
    .from(teamPlaceBatches)
    .where(eq(teamPlaceBatches.teamId, team.id));
  expect(await placesLeft(first.app.db, half)).toBe(32);

  const runner = participantsFrom(737_800_000);
  const members = await Promise.all(Array.from({ length: 30 }, () => createUserAndToken(first.app)));
  const answers = await Promise.all(
    members.map((m, i) =>
      registrationPix(
        (i % 2 ? second : first).app,
        { vaga_equipe: batch!.claimToken, participante: runner(race, `Membro ${i + 1} Parte`, half) },
        60,
        m.headers,
      ),
    ),
  );
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(8);
  expect(codes.filter((c) => c === 409)).toHaveLength(22);
  for (const refused of answers.filter((a) => a.statusCode === 409))
    expect(refused.json().code).toBe('vagas_esgotadas');

  // The captain's charge holds none now; eight members' charges one each; the public's 32 untouched.
  const held = await first.app.db
    .select()
    .from(placeReservations)
    .where(and(eq(placeReservations.categoryId, half), isNull(placeReservations.releasedAt)));
  expect(held.filter((r) => r.chargeId === batch!.chargeId)).toHaveLength(0);
  expect(new Set(held.map((r) => r.chargeId)).size).toBe(8);
  expect(held).toHaveLength(8);
  expect(await placesLeft(first.app.db, half)).toBe(32);

  // All paid: eight registrations of the team, each for the member's part.
  for (const a of answers.filter((x) => x.statusCode === 201))
    expect((await simulatePixPaid(first.app, a.json().txid)).statusCode).toBe(200);
  const rows = await first.app.db
    .select()
    .from(registrations)
    .where(eq(registrations.teamBatchId, batch!.id));
  expect(rows.map((r) => r.totalCents)).toEqual(Array(8).fill(6000));
  expect(await placesLeft(first.app.db, half)).toBe(32);
});
