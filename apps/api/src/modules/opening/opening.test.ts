import { rmSync } from 'node:fs';
import { type PainelOpening, type QueueTicket, QueueTicketSchema } from '@passada/core/contracts/opening';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

/**
 * The waiting room through the HTTP layer, on a clock the test moves: the organiser's settings, the
 * pre-queue drawn at the opening, first come first served after it, the signed turn that a second tab
 * shares, the prepare step refusing who is not admitted, and the live view.
 */
describe('the waiting room of an opening', () => {
  let t: TestApp;
  let staff: TestStaff;
  let event: MadeEvent;
  let category: number;
  const runners: Array<{ id: number; headers: Record<string, string>; cpf: string; ticket?: QueueTicket }> =
    [];

  beforeAll(async () => {
    // No job worker: the last test closes the database under the running app.
    t = await createTestApp({ now: () => clock, env: { JOBS_ENABLED: 'false' } });
    staff = await createStaffAndLogin(t.app, 'gerente');
    event = await makeEvent(t.app.db, {
      name: 'Corrida da Abertura',
      days: [
        [
          { name: '10 km', priceCents: 5000, placesLeft: 10 },
          { name: '5 km', priceCents: 4000 },
        ],
      ],
    });
    category = event.days[0]!.categories[0]!.id;
    for (let i = 0; i < 6; i++) runners.push({ ...(await makeUser(t.app)), cpf: cpfFrom(732_100_000 + i) });
  });
  /** The last test closes the database to prove polls never touch it. */
  let databaseClosed = false;
  afterAll(async () => {
    if (!databaseClosed) return t.close();
    await t.app.close();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  const settings = {
    modo: 'fila',
    abre_em: at(60).toISOString(),
    pre_fila_minutos: 30,
    admitidos_por_minuto: 2,
    minutos_da_vez: 10,
    inscricoes_por_cpf: 1,
    inscricoes_por_comprador: 2,
  };
  const join = (r: (typeof runners)[number]) =>
    t.app.inject({ method: 'POST', url: `/api/events/${event.id}/fila/`, headers: r.headers });
  const poll = async (vez: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/fila/?vez=${encodeURIComponent(vez)}`,
    });
    expect(res.statusCode).toBe(200);
    return QueueTicketSchema.parse(res.json());
  };
  const register = (r: (typeof runners)[number], categories = [category], total = 50) =>
    registrationPix(
      t.app,
      participant(event, categories, { cpf: r.cpf, email: `corredor${r.id}@example.com` }),
      total,
      r.headers,
    );
  const phase = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/abertura/` })).json()?.fase;

  it('is set by the organiser, and refused to who may not edit events', async () => {
    const operador = await createStaffAndLogin(t.app, 'operador');
    const url = `/api/painel/events/${event.id}/abertura/`;
    expect(
      (await t.app.inject({ method: 'PUT', url, headers: operador.headers, payload: settings })).statusCode,
    ).toBe(403);
    const bad = await t.app.inject({
      method: 'PUT',
      url,
      headers: staff.headers,
      payload: { ...settings, minutos_da_vez: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/vez dura/);
    const saved = await t.app.inject({ method: 'PUT', url, headers: staff.headers, payload: settings });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      modo: 'fila',
      versao: 1,
      ao_vivo: { chegadas: 0, vagas_restantes: 110 },
    });
    const stale = await t.app.inject({
      method: 'PUT',
      url,
      headers: staff.headers,
      payload: { ...settings, versao: 0 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('versao_desatualizada');
    expect(await phase()).toBe('antes');
  });

  it('opens the pre-queue N minutes before; a second tab gets the same turn back', async () => {
    const early = await join(runners[0]!);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('fila_fechada');

    clock = at(40);
    expect(await phase()).toBe('pre_fila');
    for (const r of runners.slice(0, 5)) {
      const res = await join(r);
      expect(res.statusCode).toBe(200);
      r.ticket = QueueTicketSchema.parse(res.json());
      expect(r.ticket).toMatchObject({ estado: 'pre_fila', lugar: null });
    }
    const again = QueueTicketSchema.parse((await join(runners[2]!)).json());
    expect(again.vez).toBe(runners[2]!.ticket!.vez);
    expect((await poll(runners[2]!.ticket!.vez)).estado).toBe('pre_fila');
    const before = await register(runners[0]!);
    expect(before.statusCode).toBe(409);
    expect(before.json().code).toBe('inscricoes_nao_abertas');
  });

  it('draws the pre-queue at the opening and serves later arrivals in order behind it', async () => {
    clock = at(60);
    const late = QueueTicketSchema.parse((await join(runners[5]!)).json());
    runners[5]!.ticket = late;
    expect(late.lugar).toBe(6);
    const places = await Promise.all(runners.slice(0, 5).map(async (r) => (await poll(r.ticket!.vez)).lugar));
    expect([...places].sort()).toEqual([1, 2, 3, 4, 5]);
    // Two a minute: the first batch of two is in at the opening, the others wait with an estimate.
    for (const r of runners) {
      const now = await poll(r.ticket!.vez);
      if (now.lugar! <= 2) expect(now.estado).toBe('admitido');
      else {
        expect(now).toMatchObject({ estado: 'aguardando', a_frente: now.lugar! - 3 });
        expect(now.espera_minutos).toBe(Math.ceil((now.lugar! - 2) / 2));
      }
    }
    expect(await phase()).toBe('aberta');
  });

  it('refuses a forged or another event’s turn', async () => {
    const real = runners[0]!.ticket!.vez;
    const forged = real.replace(/^(\d+)\.(\d+)\.\d+/, '$1.$2.1');
    if (forged !== real) {
      const res = await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/fila/?vez=${forged}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('vez_invalida');
    }
    const other = await t.app.inject({ method: 'GET', url: `/api/events/${event.id + 1}/fila/?vez=${real}` });
    expect(other.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('lets only the admitted register, once per CPF, within their turn', async () => {
    const byPlace = async (place: number) => {
      for (const r of runners) if ((await poll(r.ticket!.vez)).lugar === place) return r;
      throw new Error(`lugar ${place}`);
    };
    const first = await byPlace(1);
    const third = await byPlace(3);
    const waiting = await register(third);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().code).toBe('fora_da_vez');

    const paid = await register(first);
    expect(paid.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, paid.json().txid)).statusCode).toBe(200);
    // The same runner in a second tab: the same turn, and no second place for the same CPF.
    const secondTab = await register(first, [event.days[0]!.categories[1]!.id], 40);
    expect(secondTab.statusCode).toBe(409);
    expect(secondTab.json().code).toBe('limite_por_cpf');

    // A minute later the next two are in; ten minutes after their admission the turn has ended.
    clock = at(61);
    expect((await poll(third.ticket!.vez)).estado).toBe('admitido');
    clock = at(71);
    expect((await poll(third.ticket!.vez)).estado).toBe('expirada');
    const expired = await register(third);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().code).toBe('vez_expirada');
  });

  it('shows the organiser the opening live', async () => {
    clock = at(61);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/painel/events/${event.id}/abertura/`,
      headers: staff.headers,
    });
    expect(res.statusCode).toBe(200);
    const live = (res.json() as PainelOpening).ao_vivo;
    expect(live).toMatchObject({
      chegadas: 6,
      admitidos: 4,
      na_fila: 2,
      pagando: 0,
      pagas: 1,
      vagas_restantes: 109,
    });
    clock = at(60);
    const atOpening = (
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/events/${event.id}/abertura/`,
          headers: staff.headers,
        })
      ).json() as PainelOpening
    ).ao_vivo;
    expect(atOpening).toMatchObject({ admitidos: 2, na_fila: 4 });
  });

  it('answers position polls without the database', async () => {
    clock = at(60);
    const expected = await poll(runners[5]!.ticket!.vez);
    await t.database.close();
    databaseClosed = true;
    expect(await poll(runners[5]!.ticket!.vez)).toEqual(expected);
  });
});
