import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventCategories, placeReservations } from '../../db/schema/index.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// The waiting room's limits on two shop processes over one PostgreSQL database: admitted runners paying
// at the same instant for one CPF from several accounts, or from one account in several tabs, hold one
// place when the limit is one (the gate counts under the buyer's and the CPF's locks).
requirePostgres();

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = new Date(T0.getTime() - 5 * MINUTE);

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp({ now: () => clock });
  second = await createTestApp({ database: first.database, now: () => clock });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

/** An event whose waiting room admits everyone at once, limits of one per CPF and one per buyer. */
async function openedEvent(name: string, runners: number) {
  const event = await makeEvent(first.app.db, {
    name,
    days: [[{ name: '10 km', priceCents: 5000, placesLeft: 20 }]],
  });
  const staff = await createStaffAndLogin(first.app, 'gerente');
  const saved = await first.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: staff.headers,
    payload: {
      modo: 'fila',
      abre_em: new Date(clock.getTime() + MINUTE).toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 100,
      minutos_da_vez: 30,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 1,
    },
  });
  expect(saved.statusCode).toBe(200);
  await second.app.opening.refresh();
  const accounts = await Promise.all(Array.from({ length: runners }, () => makeUser(first.app)));
  for (const a of accounts)
    expect(
      (await first.app.inject({ method: 'POST', url: `/api/events/${event.id}/fila/`, headers: a.headers }))
        .statusCode,
    ).toBe(200);
  return { event, accounts };
}

const apps = () => [first.app, second.app];

async function heldPlaces(event: MadeEvent): Promise<number> {
  const category = event.days[0]!.categories[0]!.id;
  const rows = await first.app.db
    .select({ id: placeReservations.id })
    .from(placeReservations)
    .where(and(eq(placeReservations.categoryId, category), isNull(placeReservations.releasedAt)));
  const [row] = await first.app.db.select().from(eventCategories).where(eq(eventCategories.id, category));
  expect(row!.placesLeft).toBe(20 - rows.length);
  return rows.length;
}

it('one CPF paid for at the same instant from six accounts on two processes: one place', async () => {
  const { event, accounts } = await openedEvent('Corrida do CPF Disputado', 6);
  clock = new Date(clock.getTime() + 2 * MINUTE);
  await first.app.opening.refresh();
  await second.app.opening.refresh();
  const category = event.days[0]!.categories[0]!.id;
  const cpf = cpfFrom(735_100_000);
  const pays = await Promise.all(
    accounts.map((a, i) =>
      registrationPix(
        apps()[i % 2]!,
        participant(event, [category], { cpf, email: `disputado${i}@example.com` }),
        50,
        a.headers,
      ),
    ),
  );
  expect(pays.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  expect(pays.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual(
    Array(5).fill('limite_por_cpf'),
  );
  expect(await heldPlaces(event)).toBe(1);
});

it('one account paying in four tabs at the same instant, four CPFs, on two processes: one place', async () => {
  const { event, accounts } = await openedEvent('Corrida das Quatro Abas', 1);
  clock = new Date(clock.getTime() + 2 * MINUTE);
  await first.app.opening.refresh();
  await second.app.opening.refresh();
  const category = event.days[0]!.categories[0]!.id;
  const buyer = accounts[0]!;
  const pays = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      registrationPix(
        apps()[i % 2]!,
        participant(event, [category], { cpf: cpfFrom(735_200_000 + i), email: `abas${i}@example.com` }),
        50,
        buyer.headers,
      ),
    ),
  );
  expect(pays.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  expect(pays.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual(
    Array(3).fill('limite_por_comprador'),
  );
  expect(await heldPlaces(event)).toBe(1);
});
