import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventCategories, lotteryEntries } from '../../db/schema/index.ts';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, requirePostgres, type TestApp } from '../../test/test-app.ts';

// The lottery on two shop processes over one PostgreSQL database: the same CPF entering at once from
// one account's tabs gets one entry, an account's entries at once stop at its per-buyer limit, a CPF
// entered by several accounts wins one place, two staff drawing at once make one draw, and a winner paid
// for at once from two accounts holds one place.
requirePostgres();

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;

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

it('two processes share one lottery: one entry per CPF and account, one draw, one place per winner', async () => {
  const event = await makeEvent(first.app.db, {
    name: 'Corrida do Sorteio Concorrido',
    days: [[{ name: '10 km', priceCents: 5000, placesLeft: 3 }]],
  });
  const category = event.days[0]!.categories[0]!.id;
  const staff = await createStaffAndLogin(first.app, 'gerente');
  const saved = await first.app.inject({
    method: 'PUT',
    url: `/api/painel/events/${event.id}/abertura/`,
    headers: staff.headers,
    payload: {
      modo: 'sorteio',
      abre_em: T0.toISOString(),
      pre_fila_minutos: 0,
      admitidos_por_minuto: null,
      minutos_da_vez: 15,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 4,
      sorteio: {
        inscricoes_de: T0.toISOString(),
        inscricoes_ate: new Date(T0.getTime() + 30 * MINUTE).toISOString(),
        vagas: 2,
        horas_para_pagar: 2,
      },
    },
  });
  expect(saved.statusCode).toBe(200);
  // The other process learns of the opening through the notification (or its timer).
  await expect
    .poll(async () =>
      (await second.app.inject({ method: 'GET', url: `/api/events/${event.id}/abertura/` })).json(),
    )
    .toMatchObject({ modo: 'sorteio' });
  const apps = [first.app, second.app];
  expect(
    (
      await first.app.inject({
        method: 'POST',
        url: `/api/painel/events/${event.id}/sorteio/compromisso/`,
        headers: staff.headers,
      })
    ).statusCode,
  ).toBe(200);

  const accounts = await Promise.all(Array.from({ length: 6 }, () => makeUser(first.app)));
  const entry = (i: number, cpf: string, via = i) =>
    apps[via % 2]!.inject({
      method: 'POST',
      url: `/api/events/${event.id}/sorteio/`,
      headers: accounts[i]!.headers,
      payload: { nome_completo: `Corredora ${i}`, cpf, data_nascimento: '1991-02-03', categoria: category },
    });
  // The same CPF from one account in four tabs at the same moment, on both processes: one entry.
  const same = cpfFrom(734_500_000);
  const racing = await Promise.all([0, 1, 2, 3].map((tab) => entry(0, same, tab)));
  expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  expect(racing.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'cpf_ja_no_sorteio')).toBe(
    true,
  );
  // One account entering five people at once, on both processes: its four (inscrições por comprador).
  const five = await Promise.all([1, 2, 3, 4, 5].map((k) => entry(1, cpfFrom(734_500_000 + k), k)));
  expect(five.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 409]);
  expect(five.find((r) => r.statusCode === 409)!.json().code).toBe('limite_por_comprador');
  // Two other accounts entering the same CPF at once (a squatter and the owner): both entered.
  const squat = await Promise.all([2, 3].map((i) => entry(i, same)));
  expect(squat.map((r) => r.statusCode)).toEqual([201, 201]);

  // Two staff draw at the same moment, one on each process: one draw.
  clock = new Date(T0.getTime() + 31 * MINUTE);
  const draws = await Promise.all(
    apps.map((app) =>
      app.inject({
        method: 'POST',
        url: `/api/painel/events/${event.id}/sorteio/sortear/`,
        headers: staff.headers,
      }),
    ),
  );
  expect(draws.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  const rows = await first.app.db.select().from(lotteryEntries).where(eq(lotteryEntries.eventId, event.id));
  const winners = rows.filter((r) => r.wonInDraw !== null);
  expect(winners).toHaveLength(2);
  expect(winners.every((w) => w.wonInDraw === 1)).toBe(true);
  // A CPF entered by three accounts is given one place at most.
  expect(new Set(winners.map((w) => w.cpf)).size).toBe(2);

  // A winner paid for at the same moment from two accounts (two processes): one place held.
  const winner = winners[0]!;
  const pays = await Promise.all(
    [4, 5].map((i) =>
      registrationPix(
        apps[i % 2]!,
        participant(event, [category], { cpf: winner.cpf, email: `pagante${i}@example.com` }),
        50,
        accounts[i]!.headers,
      ),
    ),
  );
  expect(pays.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  expect(pays.find((r) => r.statusCode === 409)!.json().code).toBe('limite_por_cpf');
  const [row] = await first.app.db.select().from(eventCategories).where(eq(eventCategories.id, category));
  expect(row!.placesLeft).toBe(2);
});
