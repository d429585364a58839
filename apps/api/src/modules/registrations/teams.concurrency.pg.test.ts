import { MyTeamSchema } from '@passada/core/contracts/teams';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registrations, teams } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { placesLeft } from '../../test/factories/events.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, requestAs } from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// One captain's burst of new teams on two shop processes over one PostgreSQL database: the per-account
// cap is counted under a lock per captain, so connections that really race never pass it.
requirePostgres();

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = { TEAMS_PER_ACCOUNT_MAX: '3' };
  first = await createTestApp({ env, now: () => TEAMS_START });
  second = await createTestApp({ env, database: first.database, now: () => TEAMS_START });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

it('twelve teams asked at once by one captain from two processes: exactly TEAMS_PER_ACCOUNT_MAX made, each code its own', async () => {
  const race = await teamsRace(first.app, 'Corrida das Equipes Concorridas');
  const captain = await createUserAndToken(first.app);
  const asks = Array.from({ length: 12 }, (_, i) =>
    requestAs(() => (i % 2 ? second : first).app)('POST', captain, '/api/equipes/', {
      nome: `Equipe ${i + 1}`,
      evento: i % 3 ? race.id : null,
    }),
  );
  const answers = await Promise.all(asks);
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(3);
  expect(codes.filter((c) => c === 409)).toHaveLength(9);
  for (const refused of answers.filter((a) => a.statusCode === 409))
    expect(refused.json().code).toBe('limite_equipes');

  const rows = await first.app.db.select().from(teams).where(eq(teams.captainUserId, captain.id));
  expect(rows).toHaveLength(3);
  expect(new Set(rows.map((r) => r.joinCode)).size).toBe(3);
  // A fourth, later and alone, is refused too; the other process sees the same count.
  const later = await requestAs(() => second.app)('POST', captain, '/api/equipes/', {
    nome: 'Equipe Tardia',
    evento: race.id,
  });
  expect(later.statusCode).toBe(409);
});

it('fifteen members claim the captain’s eight places at once from two processes: eight registered, none twice', async () => {
  const race = await teamsRace(first.app, 'Corrida das Vagas Concorridas');
  const tenK = race.days[0]!.categories[1]!.id;
  const captain = await createUserAndToken(first.app);
  const team = await makeTeam(first.app, captain, 'Equipe da Largada', race.id);
  const pix = await requestAs(() => first.app)('POST', captain, '/api/pagar-pix/', {
    total: 8 * 109.9,
    finalidade: 'vagas_equipe',
    vagas_equipe: { equipe: team.id, categoria: tenK, quantidade: 8 },
  });
  expect(pix.statusCode).toBe(201);
  expect((await simulatePixPaid(first.app, pix.json().txid)).statusCode).toBe(200);
  const mine = MyTeamSchema.array().parse(
    (await requestAs(() => first.app)('GET', captain, '/api/equipes/')).json(),
  );
  const link = mine.find((x) => x.id === team.id)!.vagas[0]!.link;
  const left = await placesLeft(first.app.db, tenK);

  const member = participantsFrom(731_500_000);
  const members = await Promise.all(Array.from({ length: 15 }, () => createUserAndToken(first.app)));
  const answers = await Promise.all(
    members.map((who, i) =>
      requestAs(() => (i % 2 ? second : first).app)(
        'POST',
        who,
        `/api/equipes/vagas/${link.split('/').pop()}/resgatar/`,
        member(race, `Membro ${i + 1} Largada`, tenK),
      ),
    ),
  );
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(8);
  expect(codes.filter((c) => c === 409)).toHaveLength(7);
  for (const refused of answers.filter((a) => a.statusCode === 409))
    expect(refused.json().code).toBe('vagas_esgotadas');
  const rows = await first.app.db.select().from(registrations).where(eq(registrations.teamId, team.id));
  expect(rows).toHaveLength(8);
  // The claims took the captain's places, never the public's.
  expect(await placesLeft(first.app.db, tenK)).toBe(left);
});
