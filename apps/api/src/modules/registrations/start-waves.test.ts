import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { APPROVED_CARD, cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-24T13:00:00Z');

/**
 * Start waves by estimated finish time (docs/decisions/0066): the organiser sets ranges and caps per
 * category; each paid runner is given the first wave whose range holds the estimate and that has room,
 * else the next slower one; the wave is on the runner's card, the desk, the participants and the timing CSV.
 */
describe('start waves (ondas de largada) by estimated finish time', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeBuyer>>;
  let gerente: TestStaff;
  let financeiro: TestStaff;
  let event: MadeEvent;
  let ten: number;
  let five: number;
  let cpfSeq = 573_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    gerente = await createStaffAndLogin(t.app, 'gerente');
    financeiro = await createStaffAndLogin(t.app, 'financeiro');
    event = await makeEvent(t.app.db, {
      name: 'Corrida das Ondas',
      today: '2026-11-24',
      startDate: '2026-12-06',
      registrationDeadline: '2026-12-05',
      days: [
        [
          { name: '10 km', priceCents: 6000, placesLeft: 50 },
          { name: '5 km', priceCents: 6000, placesLeft: 50 },
        ],
      ],
    });
    [ten, five] = event.days[0]!.categories.map((c) => c.id) as [number, number];
  });

  const painel = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/painel${url}`,
      headers: gerente.headers,
      ...(payload ? { payload } : {}),
    });
  const setWaves = (category: number, ondas: object[]) =>
    painel('PUT', `/events/${event.id}/categorias/${category}/ondas/`, { ondas });
  const occupancy = async () => {
    const res = await painel('GET', `/events/${event.id}/ondas/`);
    expect(res.statusCode, res.body).toBe(200);
    const tenKm = res.json().find((c: { categoria_id: number }) => c.categoria_id === ten);
    return Object.fromEntries(
      tenKm.ondas.map((o: { nome: string; ocupadas: number }) => [o.nome, o.ocupadas]),
    );
  };

  async function register(category: number, estimate?: string, of: MadeEvent = event) {
    const cpf = cpfFrom(cpfSeq++);
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft: participant(of, [category], {
        cpf,
        nome_completo: `Corredora ${cpfSeq}`,
        email: `onda.${cpfSeq}@example.com`,
        ...(estimate ? { tempos_estimados: [{ categoria: category, tempo: estimate }] } : {}),
        resultado_anterior: 'https://resultados.example.com/corrida/123',
      }),
      total: 60,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return paid.json().inscricao_id as number;
  }

  const waveOf = async (id: number) => {
    const mine = await t.app.inject({ method: 'GET', url: '/api/inscricoes/', headers: buyer.headers });
    const card = mine.json().find((r: { id: number }) => r.id === id);
    return card.categoria_evento_detalhes[0].onda as string | null;
  };

  it('refuses waves a runner could fall out of: the last with a bound or a cap, bounds not rising', async () => {
    const capped = await setWaves(ten, [{ nome: 'Onda A', ate: '0:45', capacidade: null }]);
    expect(capped.statusCode).toBe(400);
    expect(capped.json()).toMatchObject({ code: 'ondas_invalidas' });
    const falling = await setWaves(ten, [
      { nome: 'Onda A', ate: '0:50', capacidade: null },
      { nome: 'Onda B', ate: '0:45', capacidade: null },
      { nome: 'Onda C', ate: null, capacidade: null },
    ]);
    expect(falling.statusCode).toBe(400);
    const badTime = await setWaves(ten, [{ nome: 'Onda A', ate: '45 min', capacidade: null }]);
    expect(badTime.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/ondas/` })).json()).toEqual([]);
  });

  it('fills a wave, then rolls over to the next slower one; no estimate starts in the last', async () => {
    const saved = await setWaves(ten, [
      { nome: 'Onda A', ate: '0:45', capacidade: 2 },
      { nome: 'Onda B', ate: '1:00', capacidade: 1 },
      { nome: 'Onda C', ate: null, capacidade: null },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const publicWaves = await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/ondas/` });
    expect(publicWaves.json()).toEqual([
      {
        categoria_id: ten,
        ondas: [
          { nome: 'Onda A', ate: '0:45' },
          { nome: 'Onda B', ate: '1:00' },
          { nome: 'Onda C', ate: null },
        ],
      },
    ]);

    const fast = await register(ten, '0:40');
    const fast2 = await register(ten, '0:44:59');
    const third = await register(ten, '0:42'); // A is full: B
    const fourth = await register(ten, '0:50'); // B is full: C
    const none = await register(ten);
    expect([await waveOf(fast), await waveOf(fast2), await waveOf(third), await waveOf(fourth)]).toEqual([
      'Onda A',
      'Onda A',
      'Onda B',
      'Onda C',
    ]);
    expect(await waveOf(none)).toBe('Onda C');
    expect(await occupancy()).toEqual({ 'Onda A': 2, 'Onda B': 1, 'Onda C': 2 });

    // A wave holding runners is not removed nor capped below them.
    const drop = await setWaves(ten, [
      { id: saved.json()[0].ondas[0].id, nome: 'Onda A', ate: '0:45', capacidade: 2 },
      { id: saved.json()[0].ondas[2].id, nome: 'Onda C', ate: null, capacidade: null },
    ]);
    expect(drop.statusCode).toBe(409);
    expect(drop.json()).toMatchObject({ code: 'onda_com_inscritos' });
    const ids = saved.json()[0].ondas.map((o: { id: number }) => o.id);
    const below = await setWaves(ten, [
      { id: ids[0], nome: 'Onda A', ate: '0:45', capacidade: 1 },
      { id: ids[1], nome: 'Onda B', ate: '1:00', capacidade: 1 },
      { id: ids[2], nome: 'Onda C', ate: null, capacidade: null },
    ]);
    expect(below.statusCode).toBe(409);
    expect(below.json()).toMatchObject({ code: 'onda_abaixo_dos_inscritos' });

    // A cancelled runner frees the slot: the next fast one gets Onda A again.
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${fast}/cancel/`,
      headers: financeiro.headers,
      payload: { motivo: 'Pedido da corredora' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await occupancy()).toEqual({ 'Onda A': 1, 'Onda B': 1, 'Onda C': 2 });
    expect(await waveOf(await register(ten, '0:41'))).toBe('Onda A');
  });

  it('a change of distance gives the new race its wave by the same estimate, and frees the old one', async () => {
    const before = await occupancy();
    const id = await register(ten, '0:58'); // B is full: C
    expect(await waveOf(id)).toBe('Onda C');
    const fiveWaves = await setWaves(five, [
      { nome: 'Pelotão 1', ate: '1:00', capacidade: null },
      { nome: 'Pelotão 2', ate: null, capacidade: null },
    ]);
    expect(fiveWaves.statusCode).toBe(200);
    const moved = await painel('POST', `/registrations/${id}/alterar/`, { de: ten, para: five });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await waveOf(id)).toBe('Pelotão 1');
    expect(await occupancy()).toEqual(before);
  });

  it('shows the wave at the desk, in the participants list and in the timing CSV with the estimate', async () => {
    const desk = await painel('GET', `/checkin/offline/?evento=${event.id}`);
    expect(desk.statusCode, desk.body).toBe(200);
    const waves = desk
      .json()
      .inscricoes.filter((r: { cancelada: boolean }) => !r.cancelada)
      .flatMap((r: { categorias: Array<{ onda: string | null }> }) => r.categorias.map((c) => c.onda));
    expect(new Set(waves)).toEqual(new Set(['Onda A', 'Onda B', 'Onda C', 'Pelotão 1']));

    const csv = await painel('GET', `/events/${event.id}/participants.csv`);
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const columns = header!.split(';');
    const waveAt = columns.indexOf('Onda de largada');
    const estimateAt = columns.indexOf('Tempo estimado');
    expect(waveAt).toBeGreaterThan(0);
    const cells = lines.map((l) => l.split(';'));
    expect(cells.some((c) => c[waveAt] === 'Onda A' && c[estimateAt] === '0:44:59')).toBe(true);
    expect(cells.some((c) => c[waveAt] === 'Onda C' && c[estimateAt] === '')).toBe(true);
  });

  it('gives a wave to those registered before the waves were set, fastest first; once, and only for staff with events', async () => {
    const earlier = await makeEvent(t.app.db, {
      name: 'Corrida das Ondas Tardias',
      today: '2026-11-24',
      startDate: '2026-12-13',
      registrationDeadline: '2026-12-12',
      days: [[{ name: '10 km', priceCents: 6000, placesLeft: 50 }]],
    });
    const cat = earlier.days[0]!.categories[0]!.id;
    const slow = await register(cat, '0:50', earlier);
    const none = await register(cat, undefined, earlier);
    const quick = await register(cat, '0:30', earlier);
    const quick2 = await register(cat, '0:35', earlier);
    expect((await waveOf(quick)) ?? null).toBeNull();
    const saved = await painel('PUT', `/events/${earlier.id}/categorias/${cat}/ondas/`, {
      ondas: [
        { nome: 'Onda A', ate: '0:40', capacidade: 1 },
        { nome: 'Onda B', ate: null, capacidade: null },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const url = `/events/${earlier.id}/categorias/${cat}/ondas/distribuir/`;

    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/painel${url}`,
      headers: financeiro.headers,
    });
    expect(refused.statusCode).toBe(403);
    const given = await painel('POST', url);
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().atribuidas).toBe(4);
    expect(given.json().categorias[0].ondas.map((o: { ocupadas: number }) => o.ocupadas)).toEqual([1, 3]);
    expect([await waveOf(quick), await waveOf(quick2), await waveOf(slow), await waveOf(none)]).toEqual([
      'Onda A',
      'Onda B',
      'Onda B',
      'Onda B',
    ]);
    // Asked again: nobody is left without one, and nobody moves.
    expect((await painel('POST', url)).json().atribuidas).toBe(0);
    expect((await painel('POST', `/events/${event.id}/categorias/${cat}/ondas/distribuir/`)).statusCode).toBe(
      404,
    );
  });
});
