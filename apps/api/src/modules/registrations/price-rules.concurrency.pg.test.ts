import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeReservations } from '../../db/schema/index.ts';
import { createStaffAndLogin, multipartPhoto, picture } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix, requestAs } from '../../test/factories/registrations.ts';
import { TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// A price rule's cap under a burst on two shop processes over one PostgreSQL database: the rule's row
// is locked while its places are counted, so connections that really race never pass the cap.
requirePostgres();

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = { PAYMENTS_RATE_LIMIT_PER_IP: '100000', PROOF_UPLOAD_RATE_LIMIT_PER_IP: '1000' };
  first = await createTestApp({ env, now: () => TEAMS_START });
  second = await createTestApp({ env, database: first.database, now: () => TEAMS_START });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

it('ten students at once for a half price capped at 2 places: 2 charges hold it, 8 are refused, the rule holds 2', async () => {
  const race = await teamsRace(first.app, 'Corrida da Meia Concorrida');
  const category = race.days[0]!.categories[1]!.id;
  const admin = await createStaffAndLogin(first.app, 'admin');
  const made = await requestAs(() => first.app)(
    'POST',
    admin,
    `/api/painel/events/${race.id}/regras-preco/`,
    {
      categoria: category,
      publico: 'estudante',
      nome: 'Estudante',
      desconto: 'meia',
      limite_vagas: 2,
    },
  );
  expect(made.statusCode).toBe(201);
  const rule = (made.json() as Array<{ id: number }>)[0]!.id;
  const photo = await picture('jpeg', 600);

  // Each student on their own account with their own proof, sent before the burst.
  const students = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      const app = (i % 2 ? second : first).app;
      const user = await makeUser(app);
      const body = multipartPhoto(photo, 'cie.jpg', 'image/jpeg');
      const sent = await app.inject({
        method: 'POST',
        url: '/api/comprovantes/',
        headers: { ...user.headers, ...body.headers },
        payload: body.payload,
      });
      expect(sent.statusCode).toBe(201);
      return { app, user, proof: sent.json().comprovante as string, cpf: cpfFrom(760_000_000 + i) };
    }),
  );
  const answers = await Promise.all(
    students.map((s) =>
      registrationPix(
        s.app,
        participant(race, [category], {
          cpf: s.cpf,
          email: `meia.${s.cpf}@example.com`,
          regra_preco: rule,
          comprovante: s.proof,
        }),
        54.95,
        s.user.headers,
      ),
    ),
  );
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(2);
  expect(codes.filter((c) => c === 409)).toHaveLength(8);
  for (const refused of answers.filter((a) => a.statusCode === 409))
    expect(refused.json().code).toBe('regra_esgotada');

  const [held] = await first.app.db
    .select({ n: count() })
    .from(placeReservations)
    .where(and(eq(placeReservations.priceRuleId, rule), isNull(placeReservations.releasedAt)));
  expect(held!.n).toBe(2);
  // The category's other places were not taken by the refused ones.
  const [all] = await first.app.db
    .select({ n: count() })
    .from(placeReservations)
    .where(and(eq(placeReservations.categoryId, category), isNull(placeReservations.releasedAt)));
  expect(all!.n).toBe(2);
});
