import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { teams } from '../../db/schema/index.ts';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { requestAs } from '../../test/factories/registrations.ts';
import { TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
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
