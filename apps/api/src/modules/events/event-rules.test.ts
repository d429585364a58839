import { EventSchema } from '@passada/core/contracts/events';
import { BibResultSchema, ParticipantListSchema, ShirtReportSchema } from '@passada/core/contracts/painel';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { eventFormBody, type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza on 25 November 2026; the race is on Sunday 20 December.
const START = new Date('2026-11-25T12:00:00Z');
const TODAY = '2026-11-25';
const RACE_DAY = '2026-12-20';

/**
 * The organiser's race rules (docs/decisions/0038): age limits per category on the race day, checked
 * by the server on every registration; registrations closed by hand; an event duplicated for next
 * year; bibs, the timing company's CSV and the shirts to order.
 */
describe('event rules', () => {
  const t = useClockedTestApp(START);
  let user: TestUser;
  let admin: TestStaff;
  let operator: TestStaff;
  let event: MadeEvent;
  const numbered = participantsFrom(381_000_000);
  let mail = 0;
  // Names with accents make no e-mail address: each participant gets a plain one.
  const person = (e: MadeEvent, name: string, category: number, overrides: Record<string, unknown> = {}) =>
    numbered(e, name, category, { email: `corredor.${++mail}@example.com`, ...overrides });

  beforeAll(async () => {
    user = await createUserAndToken(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    event = await makeEvent(t.app.db, {
      name: 'Maratona das Regras',
      today: TODAY,
      startDate: RACE_DAY,
      days: [
        [
          { name: '42 km', priceCents: 20000, minAge: 18 },
          { name: 'Kids 1 km', priceCents: 3000, minAge: 7, maxAge: 12 },
          { name: 'Caminhada 3 km', priceCents: 4000 },
        ],
      ],
      kitSizes: [
        { size: 'P', left: 50 },
        { size: 'M', left: 50 },
        { size: 'G', left: 50 },
      ],
    });
  });

  const marathon = () => event.days[0]!.categories[0]!.id;
  const kids = () => event.days[0]!.categories[1]!.id;
  const walk = () => event.days[0]!.categories[2]!.id;
  const get = (url: string, headers = admin.headers) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: unknown, headers = admin.headers) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as object });

  /** Asks the server's price, then creates the Pix at that price: the answer of the charge. */
  async function tryRegister(draft: Record<string, unknown>) {
    const price = await registrationPix(t.app, draft, 0.01, user.headers);
    if (price.statusCode !== 409 || price.json().code !== 'total_divergente') return price;
    return registrationPix(t.app, draft, price.json().total_correto, user.headers);
  }

  async function registerPaid(name: string, category: number, overrides: Record<string, unknown> = {}) {
    const pix = await tryRegister(person(event, name, category, overrides));
    expect(pix.statusCode, pix.body).toBe(201);
    const paid = await simulatePixPaid(t.app, pix.json().txid);
    return paid.json().inscricao_id as number;
  }

  describe('age limits on the race day', () => {
    it('shows each category’s limits on the event', async () => {
      const page = EventSchema.parse((await get(`/api/events/${event.id}/`, user.headers)).json());
      expect(
        page.dias_evento[0]!.categorias.map((c) => [c.nome_categoria, c.idade_minima, c.idade_maxima]),
      ).toEqual([
        ['42 km', 18, null],
        ['Kids 1 km', 7, 12],
        ['Caminhada 3 km', null, null],
      ]);
    });

    it('refuses a 4-year-old in the 42 km with a Portuguese message on the birth date', async () => {
      const res = await tryRegister(
        person(event, 'Criança Veloz', marathon(), { data_nascimento: '2022-03-01' }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'idade_fora_da_categoria' });
      expect(res.json().errors.data_nascimento).toBe(
        'A categoria 42 km é para quem tem a partir de 18 anos no dia da prova (20/12/2026); nessa data o participante terá 4 anos.',
      );
    });

    it('takes an 18th birthday on the race day itself, and refuses one day short', async () => {
      const short = await tryRegister(
        person(event, 'Quase Dezoito', marathon(), { data_nascimento: '2008-12-21' }),
      );
      expect(short.statusCode).toBe(400);
      expect(short.json().errors.data_nascimento).toContain('terá 17 anos');
      const exact = await tryRegister(
        person(event, 'Dezoito Hoje', marathon(), { data_nascimento: '2008-12-20' }),
      );
      expect(exact.statusCode, exact.body).toBe(201);
    });

    it('holds a kids’ race between its minimum and maximum, both ends included', async () => {
      const cases: Array<[string, number]> = [
        ['2019-12-20', 201], // 7 on the day
        ['2019-12-21', 400], // 6 on the day
        ['2013-12-21', 201], // 12 on the day, 13 the day after
        ['2013-12-20', 400], // 13 on the day
      ];
      for (const [birth, status] of cases) {
        const res = await tryRegister(person(event, 'Criança Corredora', kids(), { data_nascimento: birth }));
        expect(res.statusCode, `${birth}: ${res.body}`).toBe(status);
      }
    });

    it('refuses a birth date in the future, on the price and on the charge', async () => {
      const res = await tryRegister(
        person(event, 'Ainda Não Nasceu', walk(), { data_nascimento: '2026-11-26' }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.data_nascimento).toBe('Informe uma data de nascimento válida.');
    });

    it('saves limits from the form and refuses a maximum below the minimum', async () => {
      const stored = (await get(`/api/painel/events/${event.id}/`)).json();
      const body = eventFormBody(stored);
      body.dias_evento[0]!.categorias[2] = {
        ...body.dias_evento[0]!.categorias[2]!,
        idade_minima: 12,
        idade_maxima: 10,
      };
      const wrong = await t.app.inject({
        method: 'PUT',
        url: `/api/painel/events/${event.id}/`,
        headers: admin.headers,
        payload: body,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors['dias_evento.0.categorias.2.idade_maxima']).toBe(
        'A idade máxima não pode ser menor que a mínima.',
      );
      body.dias_evento[0]!.categorias[2]!.idade_maxima = 99;
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/painel/events/${event.id}/`,
        headers: admin.headers,
        payload: body,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().dias_evento[0].categorias[2]).toMatchObject({ idade_minima: 12, idade_maxima: 99 });
      body.dias_evento[0]!.categorias[2] = {
        ...body.dias_evento[0]!.categorias[2]!,
        idade_minima: null,
        idade_maxima: null,
      };
      const cleared = await t.app.inject({
        method: 'PUT',
        url: `/api/painel/events/${event.id}/`,
        headers: admin.headers,
        payload: { ...body, versao: saved.json().versao },
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
    });
  });

  it('closes registrations by hand: the shop says so and the server refuses; reopening sells again', async () => {
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/inscricoes/`,
      headers: operator.headers,
      payload: { abertas: false },
    });
    expect(closed.statusCode).toBe(403);
    const before = (await get(`/api/painel/events/${event.id}/`)).json().versao;
    const res = await post(`/api/painel/events/${event.id}/inscricoes/`, { abertas: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ inscricoes_fechadas: true, versao: before });
    expect((await get(`/api/events/${event.id}/`, user.headers)).json().inscricoes_abertas).toBe(false);
    const refused = await tryRegister(person(event, 'Chegou Tarde', walk()));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'inscricoes_encerradas',
      detail: 'As inscrições deste evento foram encerradas pela organização.',
    });
    await post(`/api/painel/events/${event.id}/inscricoes/`, { abertas: true });
    expect((await get(`/api/events/${event.id}/`, user.headers)).json().inscricoes_abertas).toBe(true);
    expect((await tryRegister(person(event, 'Chegou a Tempo', walk()))).statusCode).toBe(201);
  });

  describe('bibs, the timing company’s CSV and shirts', () => {
    beforeAll(async () => {
      const ids = {
        pedro: await registerPaid('Pedro Alves', marathon(), {
          genero: 'Masculino',
          data_nascimento: '1990-01-10',
        }),
        iris: await registerPaid('Íris Souza', marathon(), {
          data_nascimento: '1987-12-20',
          tamanho_camisa: event.kitSizes![2]!.id,
        }),
        ana: await registerPaid('ana Lima', walk(), {
          data_nascimento: '1960-06-01',
          tamanho_camisa: event.kitSizes![1]!.id,
        }),
        enzo: await registerPaid('Enzo Castro', kids(), {
          genero: 'Masculino',
          data_nascimento: '2016-05-05',
        }),
      };
      expect(Object.values(ids).every((id) => id > 0)).toBe(true);
    });

    it('numbers everyone in one sequence sorted by name the pt-BR way', async () => {
      const res = await post(`/api/painel/events/${event.id}/numeros-de-peito/`, {
        modo: 'sequencia',
        inicio: 100,
      });
      expect(res.statusCode, res.body).toBe(200);
      const list = ParticipantListSchema.parse(
        (await get(`/api/painel/events/${event.id}/participants/`)).json(),
      );
      const standing = list.results.filter(
        (p) =>
          !p.cancelamento &&
          ['Pedro Alves', 'Íris Souza', 'ana Lima', 'Enzo Castro'].includes(p.nome_completo),
      );
      expect(standing.map((p) => [p.nome_completo, p.categorias[0]!.numero_peito])).toEqual([
        ['ana Lima', expect.any(Number)],
        ['Enzo Castro', expect.any(Number)],
        ['Íris Souza', expect.any(Number)],
        ['Pedro Alves', expect.any(Number)],
      ]);
      const bibs = list.results.flatMap((p) => p.categorias.map((c) => c.numero_peito));
      expect(new Set(bibs).size).toBe(bibs.length);
      expect(Math.min(...(bibs as number[]))).toBe(100);
    });

    it('numbers by category ranges, and refuses ranges that overlap', async () => {
      const overlap = await post(`/api/painel/events/${event.id}/numeros-de-peito/`, {
        modo: 'categorias',
        faixas: [
          { categoria: marathon(), inicio: 1 },
          { categoria: kids(), inicio: 2 },
          { categoria: walk(), inicio: 500 },
        ],
      });
      expect(overlap.statusCode).toBe(409);
      expect(overlap.json().code).toBe('faixas_sobrepostas');
      const res = await post(`/api/painel/events/${event.id}/numeros-de-peito/`, {
        modo: 'categorias',
        faixas: [
          { categoria: marathon(), inicio: 1 },
          { categoria: kids(), inicio: 300 },
          { categoria: walk(), inicio: 500 },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      const result = BibResultSchema.parse(res.json());
      expect(result.categorias.find((c) => c.id === marathon())).toMatchObject({ primeiro: 1 });
      expect(result.categorias.find((c) => c.id === kids())).toMatchObject({ primeiro: 300, ultimo: 300 });
    });

    it('exports bib, emergency contact, age and age group, sorted by name (Íris before Pedro)', async () => {
      const res = await get(`/api/painel/events/${event.id}/participants.csv`);
      expect(res.statusCode).toBe(200);
      const rows: Array<Record<string, string>> = parse(res.rawPayload, {
        bom: true,
        columns: true,
        delimiter: ';',
      });
      const names = rows.map((r) => r['Nome completo']!);
      expect(names).toEqual([...names].sort(new Intl.Collator('pt-BR').compare));
      expect(names.indexOf('Íris Souza')).toBeLessThan(names.indexOf('Pedro Alves'));
      expect(names.indexOf('ana Lima')).toBeLessThan(names.indexOf('Enzo Castro'));
      const iris = rows.find((r) => r['Nome completo'] === 'Íris Souza')!;
      expect(iris).toMatchObject({
        'Número de peito': expect.stringMatching(/^\d+$/),
        'Contato de emergência': 'João da Silva',
        'Telefone de emergência': '(85) 98888-7777',
        // Born on 20 December: 39 on the race day itself.
        'Idade na prova': '39',
        'Faixa etária (cronometragem)': 'F35-39',
      });
      const enzo = rows.find((r) => r['Nome completo'] === 'Enzo Castro')!;
      expect(enzo).toMatchObject({
        'Número de peito': '300',
        'Idade na prova': '10',
        'Faixa etária (cronometragem)': 'M10-14',
      });
    });

    it('counts shirts per size in the kit’s order', async () => {
      const res = await get(`/api/painel/events/${event.id}/camisas/`);
      const report = ShirtReportSchema.parse(res.json());
      const sizes = report.tamanhos.map((s) => s.tamanho);
      expect(sizes).toEqual(['P', 'M', 'G'].filter((s) => sizes.includes(s)));
      expect(report.tamanhos.find((s) => s.tamanho === 'G')!.quantidade).toBe(1);
      expect(report.total).toBe(report.tamanhos.reduce((s, x) => s + x.quantidade, 0));
    });
  });

  it('duplicates an event for next year: dates +1 year, same categories and limits, no registrations', async () => {
    const res = await post(`/api/painel/events/${event.id}/duplicar/`, {});
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json();
    const original = (await get(`/api/painel/events/${event.id}/`)).json();
    expect(copy.id).not.toBe(event.id);
    expect(copy.versao).toBe(1);
    expect(copy.inscricoes_fechadas).toBe(false);
    expect(copy.prazo_inscricao).toBe('2027-12-17');
    expect(copy.dias_evento[0].data).toBe('2027-12-20');
    expect(
      copy.dias_evento[0].categorias.map((c: Record<string, unknown>) => [
        c.nome_categoria,
        c.idade_minima,
        c.idade_maxima,
        c.capacidade,
        c.vendidas,
      ]),
    ).toEqual(
      original.dias_evento[0].categorias.map((c: Record<string, unknown>) => [
        c.nome_categoria,
        c.idade_minima,
        c.idade_maxima,
        c.capacidade,
        0,
      ]),
    );
    const participants = ParticipantListSchema.parse(
      (await get(`/api/painel/events/${copy.id}/participants/`)).json(),
    );
    expect(participants.results).toEqual([]);
  });
});
