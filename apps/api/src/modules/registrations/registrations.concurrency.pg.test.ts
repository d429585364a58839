import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charges, eventCategories } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { cpfFrom, participant } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Places taken by connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

const TODAY = '2026-11-22';

describe('registrations on PostgreSQL, concurrently', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00Z') });
    user = await createUserAndToken(t.app, { email: 'titular.conta@example.com' });
  });
  afterAll(() => t.close());

  const pixFor = (draft: unknown, total: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: user.headers,
      payload: { total, descricao: 'Inscrição', finalidade: 'inscricao', inscricao: draft },
    });
  const placesLeft = async (categoryId: number) =>
    (
      await t.app.db
        .select({ n: eventCategories.placesLeft })
        .from(eventCategories)
        .where(eq(eventCategories.id, categoryId))
    )[0]?.n;

  it('40 simultaneous Pix registrations for 5 places: exactly 5 charges, the rest 409', async () => {
    const event = await makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '5 km', priceCents: 5000, placesLeft: 5 }]],
    });
    const id = event.days[0]!.categories[0]!.id;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pixFor(participant(event, [id], { cpf: cpfFrom(900000000 + i) }), 50),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(35);
    expect(await placesLeft(id)).toBe(0);
    const rows = await t.app.db
      .select({ draft: charges.draft })
      .from(charges)
      .where(eq(charges.purpose, 'registration'));
    const forEvent = rows.filter((r) => (r.draft as { evento: number }).evento === event.id);
    expect(forEvent).toHaveLength(5);
  });
});
