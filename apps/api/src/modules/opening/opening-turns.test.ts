import { QueueTicketSchema } from '@passada/core/contracts/opening';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const SECOND = 1000;
const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 30 * MINUTE);
let clock = new Date(T0.getTime() - 10 * MINUTE);
const at = (ms: number) => new Date(T0.getTime() + ms);

type Runner = { id: number; headers: Record<string, string>; cpf: string };

/**
 * A turn starts when the runner is admitted AND there: a late arrival whose place the schedule admitted
 * before the join gets a whole turn from the join (it was expired on arrival); staff end a waiting room
 * with runners in it, and move an opening that has not come.
 */
describe('the turns of a waiting room', () => {
  let t: TestApp;
  let staff: TestStaff;
  let seq = 736_100_000;
  const newRunner = async (): Promise<Runner> => ({ ...(await makeUser(t.app)), cpf: cpfFrom(seq++) });

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { JOBS_ENABLED: 'false' } });
    staff = await createStaffAndLogin(t.app, 'gerente');
  });
  afterAll(() => t.close());

  const url = (event: MadeEvent) => `/api/painel/events/${event.id}/abertura/`;
  async function openingEvent(name: string, places: number, settings: Record<string, unknown>) {
    const event = await makeEvent(t.app.db, {
      name,
      days: [[{ name: '10 km', priceCents: 5000, placesLeft: places }]],
    });
    const saved = await t.app.inject({
      method: 'PUT',
      url: url(event),
      headers: staff.headers,
      payload: {
        modo: 'fila',
        abre_em: T0.toISOString(),
        pre_fila_minutos: 30,
        inscricoes_por_cpf: 1,
        inscricoes_por_comprador: 2,
        ...settings,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.app.opening.refresh();
    return event;
  }
  const join = async (event: MadeEvent, r: Runner) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/fila/`,
      headers: r.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return QueueTicketSchema.parse(res.json());
  };
  const poll = async (event: MadeEvent, vez: string) =>
    QueueTicketSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/events/${event.id}/fila/?vez=${encodeURIComponent(vez)}`,
        })
      ).json(),
    );
  const pay = (event: MadeEvent, r: Runner) =>
    registrationPix(
      t.app,
      participant(event, [event.days[0]!.categories[0]!.id], { cpf: r.cpf, email: `vez${r.id}@example.com` }),
      50,
      r.headers,
    );

  it('an automatic rate with one-minute turns: a runner joining at +65 s gets a whole minute and pays', async () => {
    clock = at(-MINUTE);
    const event = await openingEvent('Corrida da Vez Tardia', 200, {
      admitidos_por_minuto: null,
      minutos_da_vez: 1,
    });
    const early = await newRunner();
    await join(event, early);
    clock = at(65 * SECOND);
    const late = await newRunner();
    const ticket = await join(event, late);
    expect(ticket).toMatchObject({ estado: 'admitido', lugar: 2 });
    expect(ticket.vez_expira_em).toBe(at(125 * SECOND).toISOString());
    expect((await poll(event, ticket.vez)).estado).toBe('admitido');
    clock = at(100 * SECOND);
    const paid = await pay(event, late);
    expect(paid.statusCode, paid.body).toBe(201);
    // The turn still ends: a minute after the join, for the poll and for a payment.
    const other = await newRunner();
    clock = at(70 * SECOND);
    const third = await join(event, other);
    clock = at(131 * SECOND);
    expect((await poll(event, third.vez)).estado).toBe('expirada');
    const expired = await pay(event, other);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().code).toBe('vez_expirada');
    // Told the truth: one arrival per account, so joining again cannot give a new turn.
    expect(expired.json().detail).not.toMatch(/Entre na fila novamente/);
    expect(expired.json().detail).toMatch(/não volta/);
  });

  it('a runner joining 149 s after the opening with 60 places left is admitted for a whole turn', async () => {
    clock = at(-MINUTE);
    const event = await openingEvent('Corrida dos 149 Segundos', 60, {
      admitidos_por_minuto: 20,
      minutos_da_vez: 2,
    });
    const before = await newRunner();
    await join(event, before);
    clock = at(149 * SECOND);
    const late = await newRunner();
    const ticket = await join(event, late);
    expect(ticket).toMatchObject({ estado: 'admitido', lugar: 2 });
    expect(ticket.vez_expira_em).toBe(at(149 * SECOND + 2 * MINUTE).toISOString());
    // A second tab gets the same turn, with the same end.
    expect(await join(event, late)).toEqual(ticket);
    clock = at(200 * SECOND);
    expect((await pay(event, late)).statusCode).toBe(201);
  });

  it('a runner still waiting when the schedule reaches them starts the turn at admission, not at the join', async () => {
    clock = at(-5 * MINUTE);
    const event = await openingEvent('Corrida da Fila Cheia', 10, {
      admitidos_por_minuto: 1,
      minutos_da_vez: 3,
    });
    const runners = [await newRunner(), await newRunner()];
    const tickets = [];
    for (const r of runners) tickets.push(await join(event, r));
    clock = at(0);
    await t.app.opening.refresh();
    const places = await Promise.all(tickets.map(async (x) => (await poll(event, x.vez)).lugar!));
    const second = tickets[places.indexOf(2)]!;
    expect((await poll(event, second.vez)).estado).toBe('aguardando');
    clock = at(MINUTE);
    expect(await poll(event, second.vez)).toMatchObject({
      estado: 'admitido',
      vez_expira_em: at(4 * MINUTE).toISOString(),
    });
  });

  it('says registrations are not open before the opening, and when they open', async () => {
    clock = at(-MINUTE);
    const event = await openingEvent('Corrida da Abertura Anunciada', 10, {
      admitidos_por_minuto: 5,
      minutos_da_vez: 5,
    });
    const read = async () => (await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/` })).json();
    expect(await read()).toMatchObject({ inscricoes_abertas: false, inscricoes_abrem_em: T0.toISOString() });
    const list = (await t.app.inject({ method: 'GET', url: '/api/events/' })).json();
    const listed = (Array.isArray(list) ? list : list.results).find((e: { id: number }) => e.id === event.id);
    expect(listed).toMatchObject({ inscricoes_abertas: false });
    clock = at(0);
    await t.app.opening.refresh();
    expect(await read()).toMatchObject({ inscricoes_abertas: true, inscricoes_abrem_em: null });
  });

  it('staff end a waiting room with runners in it: the event sells as usual', async () => {
    clock = at(-MINUTE);
    const event = await openingEvent('Corrida da Sala Encerrada', 10, {
      admitidos_por_minuto: 1,
      minutos_da_vez: 1,
    });
    const runners = [await newRunner(), await newRunner(), await newRunner()];
    for (const r of runners) await join(event, r);
    clock = at(30 * SECOND);
    await t.app.opening.refresh();
    const waiting = await newRunner();
    await join(event, waiting);
    const refused = await pay(event, waiting);
    expect(refused.json().code, refused.body).toBe('fora_da_vez');
    const operador = await createStaffAndLogin(t.app, 'operador');
    expect(
      (await t.app.inject({ method: 'DELETE', url: url(event), headers: operador.headers })).statusCode,
    ).toBe(403);
    const ended = await t.app.inject({ method: 'DELETE', url: url(event), headers: staff.headers });
    expect(ended.statusCode, ended.body).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/abertura/` })).json(),
    ).toBeNull();
    expect((await pay(event, waiting)).statusCode).toBe(201);
    // A runner whose turn had ended too.
    clock = at(5 * MINUTE);
    expect((await pay(event, runners[0]!)).statusCode).toBe(201);
  });

  it('staff move an opening that has not come, with runners in the pre-queue; not one that has', async () => {
    clock = at(-20 * MINUTE);
    const event = await openingEvent('Corrida da Abertura Adiada', 10, {
      admitidos_por_minuto: 5,
      minutos_da_vez: 5,
    });
    const early = await newRunner();
    const ticket = await join(event, early);
    expect(ticket.estado).toBe('pre_fila');
    const read = (await t.app.inject({ method: 'GET', url: url(event), headers: staff.headers })).json();
    const later = at(60 * MINUTE).toISOString();
    const moved = await t.app.inject({
      method: 'PUT',
      url: url(event),
      headers: staff.headers,
      payload: { ...read, abre_em: later, ao_vivo: undefined, sorteio: undefined },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await t.app.opening.refresh();
    clock = at(5 * MINUTE);
    expect(await poll(event, ticket.vez)).toMatchObject({ estado: 'pre_fila', abre_em: later });
    expect((await pay(event, early)).json().code).toBe('inscricoes_nao_abertas');
    clock = at(60 * MINUTE);
    await t.app.opening.refresh();
    expect((await poll(event, ticket.vez)).estado).toBe('admitido');
    const after = (await t.app.inject({ method: 'GET', url: url(event), headers: staff.headers })).json();
    const tooLate = await t.app.inject({
      method: 'PUT',
      url: url(event),
      headers: staff.headers,
      payload: { ...after, abre_em: at(90 * MINUTE).toISOString(), ao_vivo: undefined, sorteio: undefined },
    });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().code).toBe('abertura_realizada');
  });
});
