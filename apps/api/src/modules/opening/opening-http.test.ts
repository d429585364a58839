import { QueueTicketSchema } from '@passada/core/contracts/opening';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;

/** What the event page reads of the opening (null until this process has the opening's row). */
async function openingOf(t: TestApp, eventId: number) {
  return (await t.app.inject({ method: 'GET', url: `/api/events/${eventId}/abertura/` })).json();
}

/** OPENING_JOIN_RATE_LIMIT_PER_IP: joins of a waiting room from one address in a minute. */
describe('the waiting room’s join limit per address', () => {
  let t: TestApp;
  let eventId: number;
  const runners: Array<{ headers: Record<string, string> }> = [];

  beforeAll(async () => {
    t = await createTestApp({
      now: () => clock,
      env: { JOBS_ENABLED: 'false', OPENING_JOIN_RATE_LIMIT_PER_IP: '3' },
    });
    const staff = await createStaffAndLogin(t.app, 'gerente');
    eventId = (await makeEvent(t.app.db, { name: 'Corrida do Limite da Fila' })).id;
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${eventId}/abertura/`,
      headers: staff.headers,
      payload: {
        modo: 'fila',
        abre_em: new Date(T0.getTime() + 10 * MINUTE).toISOString(),
        pre_fila_minutos: 30,
        admitidos_por_minuto: 10,
        minutos_da_vez: 10,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 1,
      },
    });
    expect(saved.statusCode).toBe(200);
    // On PostgreSQL the save's notification reaches this process's copy of the openings a moment later.
    expect(
      await untilSeen(
        () => openingOf(t, eventId),
        (o) => o !== null,
      ),
    ).not.toBeNull();
    for (let i = 0; i < 4; i++) runners.push(await makeUser(t.app));
  });
  afterAll(() => t.close());

  const join = (r: { headers: Record<string, string> }, ip = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: `/api/events/${eventId}/fila/`,
      headers: r.headers,
      remoteAddress: ip,
    });

  it('refuses the joins past the limit from one address, with a Portuguese message and when to retry', async () => {
    for (const r of runners.slice(0, 3)) expect((await join(r)).statusCode).toBe(200);
    const over = await join(runners[3]!);
    expect(over.statusCode).toBe(429);
    expect(over.json().detail).toMatch(/Muitas tentativas/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing half-written: the refused runner holds no arrival, and another address still joins.
    const elsewhere = await join(runners[3]!, '198.51.100.20');
    expect(elsewhere.statusCode).toBe(200);
    expect(QueueTicketSchema.parse(elsewhere.json()).vez.split('.')[2]).toBe('4');
  });

  it('counts again in the next minute', async () => {
    clock = new Date(T0.getTime() + MINUTE);
    const again = await join(runners[0]!);
    expect(again.statusCode).toBe(200);
    // A second join of the same account gets its first arrival back.
    expect(QueueTicketSchema.parse(again.json()).vez.split('.')[2]).toBe('1');
  });
});

/** The position poll checks its own inputs (no schema validation per poll): clear 4xx for bad ones. */
describe('the position poll’s inputs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('answers 404 for a malformed event id and 400 for a missing or malformed turn', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    for (const url of ['/api/events/abc/fila/?vez=1.2.3.x', '/api/events/0/fila/?vez=1.2.3.x']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().detail).toMatch(/não/);
    }
    // An event with a waiting room: a turn that is not a signed turn of it is 400.
    const event = await makeEvent(t.app.db, { name: 'Corrida da Vez Malformada' });
    const staff = await createStaffAndLogin(t.app, 'gerente');
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/events/${event.id}/abertura/`,
      headers: staff.headers,
      payload: {
        modo: 'fila',
        abre_em: new Date(Date.now() + 10 * MINUTE).toISOString(),
        pre_fila_minutos: 30,
        admitidos_por_minuto: 10,
        minutos_da_vez: 10,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 1,
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(
      await untilSeen(
        () => openingOf(t, event.id),
        (o) => o !== null,
      ),
    ).not.toBeNull();
    for (const query of ['', '?vez=', '?vez=1.2.3.x', `?vez=${event.id}.1.1.AAAAAAAAAAAAAAAAAAAAAA`]) {
      const res = await get(`/api/events/${event.id}/fila/${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('vez_invalida');
    }
  });
});
