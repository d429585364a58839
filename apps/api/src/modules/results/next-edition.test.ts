import { LotteryEntrySchema } from '@passada/core/contracts/lottery';
import { MyResultsSchema } from '@passada/core/contracts/results';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrations } from '../../db/schema/index.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { publishedRace } from '../../test/factories/results.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-22T12:00:00Z');
const at = (minutes: number) => new Date(START.getTime() + minutes * 60_000);

/**
 * The loop back to the next edition (decision 0064, later): from "Meus resultados", one click puts the
 * runner of a race into the next edition's lottery, or its waitlist when the race is sold out, with the
 * data and the distance of the race run; only the account that made the registration may, and every
 * rule of the lottery and the waitlist still answers.
 */
describe('pre-registration in the next edition in one click', () => {
  let t: TestApp;
  let now = START;
  let buyer: TestUser;
  let stranger: TestUser;
  let manager: TestStaff;
  let event: MadeEvent;
  let lotteryEdition: MadeEvent;
  const entryOf = new Map<string, number>();
  let cpfOf: Map<string, string>;

  const painel = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/painel${url}`,
      headers: manager.headers,
      ...(payload ? { payload } : {}),
    });
  const linkNext = async (next: MadeEvent) => {
    const res = await painel('PUT', `/events/${event.id}/resultados/loja/`, {
      camisa_finisher_id: null,
      proxima_edicao_id: next.id,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const click = (name: string, who: { headers: Record<string, string> } | null = buyer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/resultados/meus/${entryOf.get(name)}/proxima-edicao/`,
      headers: who?.headers ?? {},
    });

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    buyer = await createUserAndToken(t.app);
    stranger = await createUserAndToken(t.app);
    manager = await createStaffAndLogin(t.app, 'gerente');
    // The buyer registered three runners: two ran the 10 km, one the 5 km (bibs 1, 2, 3).
    const race = await publishedRace(t, {
      buyer,
      staff: manager,
      name: 'Corrida da Volta',
      firstCpf: 651000001,
      runners: [
        ['Ana Volta', '10 km'],
        ['Bia Volta', '10 km'],
        ['Caio Volta', '5 km'],
      ],
    });
    event = race.event;
    cpfOf = race.cpfOf;

    // Next year opens by lottery, entries from ten minutes on; its 10 km and 5 km as this year.
    lotteryEdition = await makeEvent(t.app.db, {
      name: 'Corrida da Volta 2027',
      today: '2026-11-22',
      startDate: '2027-12-19',
      registrationDeadline: '2027-12-15',
    });
    const opening = await painel('PUT', `/events/${lotteryEdition.id}/abertura/`, {
      modo: 'sorteio',
      abre_em: at(10).toISOString(),
      pre_fila_minutos: 0,
      admitidos_por_minuto: null,
      minutos_da_vez: 15,
      inscricoes_por_cpf: 1,
      inscricoes_por_comprador: 2,
      sorteio: {
        inscricoes_de: at(10).toISOString(),
        inscricoes_ate: at(600).toISOString(),
        vagas: 100,
        horas_para_pagar: 24,
      },
    });
    expect(opening.statusCode, opening.body).toBe(200);
    await linkNext(lotteryEdition);

    const mine = await t.app.inject({ method: 'GET', url: '/api/resultados/meus/', headers: buyer.headers });
    expect(mine.statusCode).toBe(200);
    for (const r of MyResultsSchema.parse(mine.json())) entryOf.set(r.nome, r.inscricao);
  });
  afterAll(() => t.close());

  it('lists the next edition beside each result of the account', async () => {
    const mine = MyResultsSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/resultados/meus/', headers: buyer.headers })).json(),
    );
    expect(mine).toHaveLength(3);
    for (const r of mine)
      expect(r.proxima_edicao).toEqual({
        id: lotteryEdition.id,
        nome: 'Corrida da Volta 2027',
        data: '2027-12-19',
      });
    expect(new Set(mine.map((r) => r.inscricao)).size).toBe(3);
  });

  it('enters the runner in the lottery with the data and the distance run, once, after its entries open', async () => {
    const early = await click('Ana Volta');
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().code).toBe('sorteio_nao_aberto');

    now = at(20);
    const ana = await click('Ana Volta');
    expect(ana.statusCode, ana.body).toBe(201);
    expect(ana.json()).toMatchObject({
      modo: 'sorteio',
      evento: { id: lotteryEdition.id, nome: 'Corrida da Volta 2027' },
      categoria: '10 km',
    });
    // The same CPF again: the lottery's own answer.
    const again = await click('Ana Volta');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('cpf_ja_no_sorteio');
    const caio = await click('Caio Volta');
    expect(caio.statusCode, caio.body).toBe(201);
    expect(caio.json().categoria).toBe('5 km');

    const entries = LotteryEntrySchema.array().parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/events/${lotteryEdition.id}/sorteio/minhas/`,
          headers: buyer.headers,
        })
      ).json(),
    );
    const byName = new Map(entries.map((e) => [e.nome_completo, e]));
    expect([...byName.keys()].sort()).toEqual(['Ana Volta', 'Caio Volta']);
    expect(byName.get('Ana Volta')!.categoria).toBe(lotteryEdition.days[0]!.categories[1]!.id);
    expect(byName.get('Caio Volta')!.categoria).toBe(lotteryEdition.days[0]!.categories[0]!.id);

    // A third runner past the opening's two per buyer.
    const third = await click('Bia Volta');
    expect(third.statusCode).toBe(409);
    expect(third.json().code).toBe('limite_por_comprador');
  });

  it('is only for the account that made the registration', async () => {
    expect((await click('Bia Volta', null)).statusCode).toBe(401);
    const other = await click('Bia Volta', stranger);
    expect(other.statusCode).toBe(404);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/resultados/meus/99999999/proxima-edicao/',
      headers: buyer.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("joins the sold-out race's waitlist with the account's address, and leaves a race with places to a sale", async () => {
    const soldOut = await makeEvent(t.app.db, {
      name: 'Corrida da Volta 2028',
      today: '2026-11-22',
      startDate: '2028-12-17',
      registrationDeadline: '2028-12-14',
      days: [
        [
          { name: '5 km', priceCents: 8990, placesLeft: 30 },
          { name: '10 km', priceCents: 10990, placesLeft: 0 },
        ],
      ],
    });
    const rulesUrl = `/events/${soldOut.id}/pos-venda/`;
    const { texto: _, ...rules } = (await painel('GET', rulesUrl)).json();
    const saved = await painel('PUT', rulesUrl, {
      ...rules,
      lista_espera_categorias: soldOut.days[0]!.categories.map((c) => c.id),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await linkNext(soldOut);

    const bia = await click('Bia Volta');
    expect(bia.statusCode, bia.body).toBe(201);
    expect(bia.json()).toMatchObject({ modo: 'lista_espera', categoria: '10 km' });
    const line = (await painel('GET', `/events/${soldOut.id}/lista-espera/`)).json();
    const tenKm = line.categorias.find((c: { nome: string }) => c.nome === '10 km');
    expect(tenKm.entradas).toEqual([
      expect.objectContaining({ nome_completo: 'Bia Volta', email: buyer.email, posicao: 1 }),
    ]);

    const caio = await click('Caio Volta');
    expect(caio.statusCode).toBe(409);
    expect(caio.json().code).toBe('vagas_disponiveis');
  });

  it('asks the runner to choose when the next edition has no single race of the distance, or the data are gone', async () => {
    const twoTens = await makeEvent(t.app.db, {
      name: 'Corrida da Volta 2029',
      today: '2026-11-22',
      startDate: '2029-12-16',
      days: [[{ name: '10 km' }], [{ name: '10 km' }]],
    });
    await linkNext(twoTens);
    const ambiguous = await click('Bia Volta');
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json().code).toBe('categoria_a_escolher');

    // After the event the runner's data are erased (decision 0061): nothing left to pre-register with.
    await t.app.db
      .update(registrations)
      .set({ cpf: '' })
      .where(eq(registrations.cpf, cpfOf.get('Bia Volta')!));
    const erased = await click('Bia Volta');
    expect(erased.statusCode).toBe(409);
    expect(erased.json().code).toBe('dados_apagados');
  });
});
