import { EventListSchema, EventSchema } from '@passada/core/contracts/events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEvent } from '../../test/factories/events.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

// Two server processes over one PostgreSQL database, each keeping its event answers: a place taken
// and a lot turned through one must reach the other's kept answers through NOTIFY.
requirePostgres();

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp();
  second = await createTestApp({ database: first.database });
});
afterAll(async () => {
  await second.app.close();
  await first.close();
});

it('a place taken and a lot turned through one process show in the other', async () => {
  const event = await makeEvent(first.app.db, {
    name: 'Corrida das Duas Portas',
    days: [
      [
        {
          name: '10 km',
          priceCents: 10000,
          placesLeft: 4,
          lots: [{ name: '1º lote', priceCents: 7000, untilCount: 1 }],
        },
      ],
    ],
  });
  const category = event.days[0]!.categories[0]!.id;
  const detail = async () => {
    const e = EventSchema.parse(
      (await second.app.inject({ method: 'GET', url: `/api/events/${event.id}/` })).json(),
    );
    return e.dias_evento[0]!.categorias[0]!;
  };
  const listed = async () => {
    const list = EventListSchema.parse(
      (await second.app.inject({ method: 'GET', url: '/api/events/' })).json(),
    );
    return list.find((e) => e.id === event.id)?.dias_evento[0]?.categorias[0];
  };
  // The second process keeps both answers now.
  expect(await untilSeen(async () => (await detail()).quantidade_disponivel, 4)).toBe(4);
  expect(await untilSeen(async () => (await listed())?.quantidade_disponivel, 4)).toBe(4);
  expect((await detail()).lote_atual?.nome).toBe('1º lote');

  const buyer = await makeUser(first.app);
  expect(
    (await registrationPix(first.app, participant(event, [category]), 70, buyer.headers)).statusCode,
  ).toBe(201);
  expect(await untilSeen(async () => (await detail()).quantidade_disponivel, 3)).toBe(3);
  expect((await detail()).lote_atual).toBeNull();
  expect((await detail()).preco_inscricao).toBe(100);
  expect(await untilSeen(async () => (await listed())?.quantidade_disponivel, 3)).toBe(3);
  expect((await listed())?.preco_inscricao).toBe(100);
});
