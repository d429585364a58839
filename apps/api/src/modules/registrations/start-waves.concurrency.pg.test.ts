import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCategoryWaves, registrationCategories } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// Payments confirmed by connections that really race: PostgreSQL only (npm test provides one).
requirePostgres();

/** Start waves (docs/decisions/0066): a capped wave's last slots go to exactly as many runners as it holds. */
describe('start waves on PostgreSQL, payments confirmed at once', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date('2026-11-22T12:00:00Z') });
  });
  afterAll(() => t.close());

  it('12 runners of one estimate paid together for a wave of 3: 3 in it, 9 rolled over, none lost', async () => {
    const event = await makeEvent(t.app.db, {
      today: '2026-11-22',
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: 100 }]],
    });
    const category = event.days[0]!.categories[0]!.id;
    const staff = await createStaffAndLogin(t.app, 'gerente');
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/categorias/${category}/ondas/`,
      headers: staff.headers,
      payload: {
        ondas: [
          { nome: 'Onda A', ate: '0:50', capacidade: 3 },
          { nome: 'Onda B', ate: null, capacidade: null },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const people = await Promise.all(Array.from({ length: 12 }, () => makeUser(t.app)));
    const pix = await Promise.all(
      people.map((p, i) =>
        registrationPix(
          t.app,
          participant(event, [category], {
            cpf: cpfFrom(930000000 + i),
            tempos_estimados: [{ categoria: category, tempo: '0:45' }],
          }),
          50,
          p.headers,
        ),
      ),
    );
    for (const p of pix) expect(p.statusCode, p.body).toBe(201);
    const paid = await Promise.all(pix.map((p) => simulatePixPaid(t.app, p.json().txid)));
    for (const p of paid) expect(p.statusCode, p.body).toBe(200);

    const waves = await t.app.db
      .select({ id: eventCategoryWaves.id, name: eventCategoryWaves.name })
      .from(eventCategoryWaves)
      .where(eq(eventCategoryWaves.categoryId, category));
    const entries = await t.app.db
      .select({ wave: registrationCategories.waveId })
      .from(registrationCategories)
      .where(inArray(registrationCategories.categoryId, [category]));
    expect(entries).toHaveLength(12);
    const count = (name: string) =>
      entries.filter((e) => e.wave === waves.find((w) => w.name === name)!.id).length;
    expect([count('Onda A'), count('Onda B')]).toEqual([3, 9]);
  });
});
