import { QueueTicketSchema } from '@passada/core/contracts/opening';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

// Two shop processes over one PostgreSQL database sharing one waiting room: arrival numbers come from
// one counter, the pre-queue is drawn the same in both, a turn signed by one is honoured by the other,
// and a second device of the same account gets its first place back.
requirePostgres();

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = new Date(T0.getTime() - 10 * MINUTE);

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

it('two processes share one queue: one counter, one draw, one turn per account', async () => {
  const event = await makeEvent(first.app.db, {
    name: 'Corrida dos Dois Processos',
    days: [[{ name: '10 km', priceCents: 5000, placesLeft: 50 }]],
  });
  const staff = await createStaffAndLogin(first.app, 'gerente');
  const saved = await first.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: staff.headers,
    payload: {
      modo: 'fila',
      abre_em: T0.toISOString(),
      pre_fila_minutos: 30,
      admitidos_por_minuto: 3,
      minutos_da_vez: 10,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 1,
    },
  });
  expect(saved.statusCode).toBe(200);
  // The other process learns of the opening through the notification (or its timer).
  const status = await untilSeen(
    async () => (await second.app.inject({ method: 'GET', url: `/api/events/${event.id}/abertura/` })).json(),
    (answer) => answer !== null,
  );
  expect(status).toMatchObject({ modo: 'fila', fase: 'pre_fila' });

  // Eight runners join the pre-queue, alternating processes, some at the same moment.
  const runners = await Promise.all(Array.from({ length: 8 }, () => makeUser(first.app)));
  const apps = [first.app, second.app];
  const tickets = await Promise.all(
    runners.map(async (r, i) => {
      const res = await apps[i % 2]!.inject({
        method: 'POST',
        url: `/api/events/${event.id}/fila/`,
        headers: r.headers,
      });
      expect(res.statusCode).toBe(200);
      return QueueTicketSchema.parse(res.json());
    }),
  );
  const numbers = tickets.map((t) => Number(t.vez.split('.')[2]));
  expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  // A second device of the first runner, through the other process: the same turn.
  const again = await second.app.inject({
    method: 'POST',
    url: `/api/events/${event.id}/fila/`,
    headers: runners[0]!.headers,
  });
  expect(QueueTicketSchema.parse(again.json()).vez).toBe(tickets[0]!.vez);

  // The opening: both processes freeze the same pre-queue and draw the same places.
  clock = T0;
  await first.app.opening.refresh();
  await second.app.opening.refresh();
  const placesIn = async (app: TestApp['app']) =>
    Promise.all(
      tickets.map(async (t) => {
        const res = await app.inject({
          method: 'GET',
          url: `/api/events/${event.id}/fila/?vez=${encodeURIComponent(t.vez)}`,
        });
        return QueueTicketSchema.parse(res.json());
      }),
    );
  const inFirst = await placesIn(first.app);
  const inSecond = await placesIn(second.app);
  expect(inSecond).toEqual(inFirst);
  expect(inFirst.map((t) => t.lugar).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(inFirst.filter((t) => t.estado === 'admitido')).toHaveLength(3);

  // An admitted runner registers through the process that did not issue the turn; a waiting one cannot.
  const admitted = inFirst.findIndex((t) => t.estado === 'admitido');
  const waiting = inFirst.findIndex((t) => t.estado === 'aguardando');
  const cat = event.days[0]!.categories[0]!.id;
  const draft = (i: number) =>
    participant(event, [cat], { cpf: cpfFrom(733_200_000 + i), email: `dois${i}@example.com` });
  const otherApp = (i: number) => apps[(i + 1) % 2]!;
  expect(
    (await registrationPix(otherApp(admitted), draft(admitted), 50, runners[admitted]!.headers)).statusCode,
  ).toBe(201);
  const refused = await registrationPix(otherApp(waiting), draft(waiting), 50, runners[waiting]!.headers);
  expect(refused.statusCode).toBe(409);
  expect(refused.json().code).toBe('fora_da_vez');
});
