import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventCategories, placeReservations } from '../../db/schema/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer, orderDraft, quoteCents } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
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

/** An event whose waiting room admits everyone at once, limits of one per CPF and `perBuyer` per buyer. */
async function openedEvent(name: string, runners: number, perBuyer = 1) {
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
      inscricoes_por_comprador: perBuyer,
    },
  });
  expect(saved.statusCode).toBe(200);
  await second.app.opening.refresh();
  const accounts = await Promise.all(Array.from({ length: runners }, () => makeBuyer(first.app)));
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

it('two carts naming the same two runners the other way round, on two processes: one holds both, no deadlock', async () => {
  const { event, accounts } = await openedEvent('Corrida das Duas Famílias', 2, 12);
  clock = new Date(clock.getTime() + 2 * MINUTE);
  await first.app.opening.refresh();
  await second.app.opening.refresh();
  const category = event.days[0]!.categories[0]!.id;
  const product = await makeProduct(first.app.db, {
    priceCents: 3990,
    stock: [{ color: 'Azul', size: 'M', quantity: 50 }],
  });
  const [one, other] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
  const shipping = await quoteCents(first.app, one.zipCode, orderDraft(one, [{ product }]));
  // Each round two new people; the carts lock their CPFs in one order whatever order they list them in.
  for (let round = 0; round < 6; round++) {
    const runners = [cpfFrom(735_300_000 + 2 * round), cpfFrom(735_300_001 + 2 * round)];
    const cart = (buyer: typeof one, cpfs: string[]) => ({
      total: (3990 + shipping + 2 * 5000) / 100,
      finalidade: 'pedido',
      pedido: {
        ...orderDraft(buyer, [{ product }]),
        inscricoes: cpfs.map((cpf, k) =>
          participant(event, [category], { cpf, email: `familia${round}${k}@example.com` }),
        ),
      },
    });
    const pays = await Promise.all([
      first.app.inject({
        method: 'POST',
        url: '/api/pagar-pix/',
        headers: one.headers,
        payload: cart(one, runners),
      }),
      second.app.inject({
        method: 'POST',
        url: '/api/pagar-pix/',
        headers: other.headers,
        payload: cart(other, [...runners].reverse()),
      }),
    ]);
    expect(pays.map((r) => r.statusCode).sort(), pays.map((r) => r.body.slice(0, 200)).join('\n')).toEqual([
      201, 409,
    ]);
    expect(pays.find((r) => r.statusCode === 409)!.json().code).toBe('limite_por_cpf');
  }
});
