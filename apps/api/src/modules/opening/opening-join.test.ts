import { QueueTicketSchema } from '@passada/core/contracts/opening';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventOpenings, openingArrivals } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// Joins written in batches (docs/decisions/0054): joins received together share one transaction, and
// still every account gets one arrival number, the numbers are dense, and the pre-queue is exactly the
// arrivals received before the opening instant.
const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;

let t: TestApp;
let staff: TestStaff;
beforeAll(async () => {
  // The refresh timer (which freezes a pre-queue by itself once the opening instant has passed) kept out
  // of these tests: they move the clock past the instant before their batch is written, and a tick in
  // between on a slow machine froze the pre-queue before the batch counted.
  t = await createTestApp({ now: () => clock, env: { JOBS_ENABLED: 'false', OPENING_REFRESH_MS: '60000' } });
  staff = await createStaffAndLogin(t.app, 'gerente');
});
afterAll(() => t.close());

/** An event with a waiting room opening `minutes` after the clock, its pre-queue open now. */
async function roomOpeningIn(name: string, minutes: number) {
  const event = await makeEvent(t.app.db, {
    name,
    days: [[{ name: '10 km', priceCents: 5000, placesLeft: 100 }]],
  });
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: staff.headers,
    payload: {
      modo: 'fila',
      abre_em: new Date(clock.getTime() + minutes * MINUTE).toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 5,
      minutos_da_vez: 10,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 1,
    },
  });
  expect(saved.statusCode).toBe(200);
  return event;
}

async function openingRow(eventId: number) {
  const [row] = await t.app.db.select().from(eventOpenings).where(eq(eventOpenings.eventId, eventId));
  return row!;
}

it('forty accounts join at once, ten of them in a second tab too: forty dense numbers, one per account', async () => {
  const event = await roomOpeningIn('Corrida da Fila em Lote', 10);
  const accounts = await Promise.all(Array.from({ length: 40 }, () => makeUser(t.app)));
  const join = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/events/${event.id}/fila/`, headers });
  const answers = await Promise.all([...accounts, ...accounts.slice(0, 10)].map((a) => join(a.headers)));
  expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
  const vez = answers.map((r) => QueueTicketSchema.parse(r.json()).vez);
  const numbers = vez.slice(0, 40).map((v) => Number(v.split('.')[2]));
  expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  // The second tab of each of the first ten accounts got the first tab's turn.
  expect(vez.slice(40)).toEqual(vez.slice(0, 10));
  expect((await openingRow(event.id)).arrivals).toBe(40);
  const rows = await t.app.db
    .select()
    .from(openingArrivals)
    .where(eq(openingArrivals.eventId, event.id))
    .orderBy(asc(openingArrivals.number));
  expect(rows.map((r) => r.userId)).toHaveLength(40);
  expect(new Set(rows.map((r) => r.userId)).size).toBe(40);
  // A later join of an account already in the room, alone: its number back, the counter untouched.
  expect(QueueTicketSchema.parse((await join(accounts[7]!.headers)).json()).vez).toBe(vez[7]);
  expect((await openingRow(event.id)).arrivals).toBe(40);
});

it('joins received together on both sides of the opening instant: the pre-queue is those before it', async () => {
  clock = new Date(T0.getTime() + 60 * MINUTE);
  const event = await roomOpeningIn('Corrida da Virada da Abertura', 1);
  const opensAt = clock.getTime() + MINUTE;
  const accounts = await Promise.all(Array.from({ length: 7 }, () => makeUser(t.app)));
  // All received in one turn of the event loop, so they wait for the same write: three before the
  // instant, then the opening, then four after it (one of them a second tab of a runner before).
  const joins = accounts.slice(0, 3).map((a, i) => {
    clock = new Date(opensAt - 300 + i * 100);
    return t.app.opening.join(event.id, a.id);
  });
  for (const [i, a] of [...accounts.slice(3), accounts[1]!].entries()) {
    clock = new Date(opensAt + i * 100);
    joins.push(t.app.opening.join(event.id, a.id));
  }
  const tickets = await Promise.all(joins);
  const numbers = tickets.map((x) => Number(x.vez.split('.')[2]));
  expect(numbers.slice(0, 3).sort()).toEqual([1, 2, 3]);
  // After the opening, first come first served: in the order received, the second tab its first number.
  expect(numbers.slice(3)).toEqual([4, 5, 6, 7, numbers[1]]);
  expect(await openingRow(event.id)).toMatchObject({ arrivals: 7, preQueueSize: 3 });
  // The pre-queue is drawn among the three before the opening; the others keep their number as place.
  expect(tickets.slice(3, 7).map((x) => x.lugar)).toEqual([4, 5, 6, 7]);
  expect(tickets.slice(0, 3).map((x) => x.estado)).toEqual(['pre_fila', 'pre_fila', 'pre_fila']);
  const drawn = tickets.slice(0, 3).map((x) => t.app.opening.poll(event.id, x.vez).lugar);
  expect(drawn.sort()).toEqual([1, 2, 3]);
});
