import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charges, eventCategories, eventKitSizes } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Places taken by connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

const TODAY = '2026-11-22';

describe('registrations on PostgreSQL, concurrently', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00Z') });
  });
  afterAll(() => t.close());

  const pixFor = (draft: unknown, total: number, headers: Record<string, string>) =>
    registrationPix(t.app, draft, total, headers);
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
    // One account each: an account holds at most a few open charges, and a new one replaces its own.
    const people = await Promise.all(Array.from({ length: 40 }, () => makeUser(t.app)));
    const results = await Promise.all(
      people.map((p, i) => pixFor(participant(event, [id], { cpf: cpfFrom(900000000 + i) }), 50, p.headers)),
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

  it('20 simultaneous registrations for the last shirt of a size: one holds it, the rest 409 "esgotado"', async () => {
    const event = await makeEvent(t.app.db, {
      today: TODAY,
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 100 }]],
      kitSizes: [
        { size: 'P', left: 1 },
        { size: 'M', left: 50 },
      ],
    });
    const id = event.days[0]!.categories[0]!.id;
    const small = event.kitSizes!.find((k) => k.size === 'P')!.id;
    const people = await Promise.all(Array.from({ length: 20 }, () => makeUser(t.app)));
    const results = await Promise.all(
      people.map((p, i) =>
        pixFor(
          participant(event, [id], { cpf: cpfFrom(910000000 + i), tamanho_camisa: small }),
          50,
          p.headers,
        ),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().code).toBe('tamanho_esgotado');
    const left = await t.app.db
      .select({ size: eventKitSizes.size, left: eventKitSizes.left })
      .from(eventKitSizes)
      .where(eq(eventKitSizes.eventId, event.id));
    expect(Object.fromEntries(left.map((k) => [k.size, k.left]))).toEqual({ P: 0, M: 50 });
    // The refused ones gave back the place they had taken before the shirt ran out.
    expect(await placesLeft(id)).toBe(99);
  });
});
