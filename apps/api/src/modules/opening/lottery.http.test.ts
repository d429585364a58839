import { createHash } from 'node:crypto';
import {
  LOTTERY_ENTRIES_CSV_HEADER,
  type LotteryEntry,
  LotteryEntrySchema,
  PainelLotteryEntryPageSchema,
  type PublicLottery,
  PublicLotterySchema,
} from '@passada/core/contracts/lottery';
import { PainelOpeningSchema } from '@passada/core/contracts/opening';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCategories, lotteryEntries, users } from '../../db/schema/index.ts';
import { waitForMail } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { makeUser, simulatePixPaid } from '../../test/factories/payments.ts';
import { cpfFrom, participant, registrationPix } from '../../test/factories/registrations.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { drawRanking } from './lottery.ts';

const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
let clock = T0;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);
/** How long a test waits for a draw's e-mails (a condition, not a sleep). */
const DRAW_MAIL_MS = 30_000;

type Runner = {
  id: number;
  headers: Record<string, string>;
  cpf: string;
  email: string;
  entry?: LotteryEntry;
};

/**
 * The lottery opening through the HTTP layer, on a clock the test moves: the organiser's window and
 * commitment, entries, the draw anyone can recompute from what is published, winners paying through
 * the usual registration within the deadline, expiry and a further draw, and no category oversold.
 */
describe('the lottery opening', () => {
  let t: TestApp;
  let staff: TestStaff;
  let event: MadeEvent;
  /** Two places in the 10 km, many in the 5 km: the draw must skip a 10 km entry once it is full. */
  let tenK: number;
  let fiveK: number;
  const runners: Runner[] = [];

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    staff = await createStaffAndLogin(t.app, 'gerente');
    event = await makeEvent(t.app.db, {
      name: 'Corrida do Sorteio',
      days: [
        [
          { name: '10 km', priceCents: 5000, placesLeft: 2 },
          { name: '5 km', priceCents: 4000, placesLeft: 50 },
        ],
      ],
    });
    tenK = event.days[0]!.categories[0]!.id;
    fiveK = event.days[0]!.categories[1]!.id;
    for (let i = 0; i < 8; i++) {
      const user = await makeUser(t.app);
      // The lottery writes to the account's own address only.
      const [account] = await t.app.db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, user.id));
      runners.push({ ...user, cpf: cpfFrom(733_200_000 + i), email: account!.email });
    }
  });
  afterAll(() => t.close());

  const painelUrl = () => `/api/painel/events/${event.id}/abertura/`;
  const settings = {
    modo: 'sorteio',
    abre_em: at(10).toISOString(),
    pre_fila_minutos: 0,
    admitidos_por_minuto: null,
    minutos_da_vez: 15,
    inscricoes_por_cpf: 1,
    inscricoes_por_comprador: 4,
    sorteio: {
      inscricoes_de: at(10).toISOString(),
      inscricoes_ate: at(60).toISOString(),
      vagas: 3,
      horas_para_pagar: 2,
    },
  };
  const enter = (r: Runner, categoria: number, overrides: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/sorteio/`,
      headers: r.headers,
      payload: {
        nome_completo: `Corredor ${r.id}`,
        cpf: r.cpf,
        email: r.email,
        data_nascimento: '1990-05-10',
        categoria,
        ...overrides,
      },
    });
  const staffPost = (path: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/events/${event.id}/sorteio/${path}/`,
      headers: staff.headers,
    });
  const painel = async () =>
    PainelOpeningSchema.parse(
      (await t.app.inject({ method: 'GET', url: painelUrl(), headers: staff.headers })).json(),
    );
  const published = async (): Promise<PublicLottery> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/sorteio/` });
    expect(res.statusCode).toBe(200);
    return PublicLotterySchema.parse(res.json());
  };
  const mine = async (r: Runner) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/sorteio/minhas/`,
      headers: r.headers,
    });
    expect(res.statusCode).toBe(200);
    return LotteryEntrySchema.array().parse(res.json());
  };
  const register = (r: Runner, category: number) =>
    registrationPix(
      t.app,
      participant(event, [category], { cpf: r.cpf, email: r.email, nome_completo: `Corredor ${r.id}` }),
      category === tenK ? 50 : 40,
      r.headers,
    );
  const runnerOf = (entryId: number) => runners.find((r) => r.entry?.id === entryId)!;

  it('is set by the organiser with its window, places and deadline', async () => {
    const operador = await createStaffAndLogin(t.app, 'operador');
    expect(
      (await t.app.inject({ method: 'PUT', url: painelUrl(), headers: operador.headers, payload: settings }))
        .statusCode,
    ).toBe(403);
    const missing = await t.app.inject({
      method: 'PUT',
      url: painelUrl(),
      headers: staff.headers,
      payload: { ...settings, sorteio: null },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/sorteio/);
    const backwards = await t.app.inject({
      method: 'PUT',
      url: painelUrl(),
      headers: staff.headers,
      payload: { ...settings, sorteio: { ...settings.sorteio, inscricoes_ate: at(5).toISOString() } },
    });
    expect(backwards.statusCode).toBe(400);
    const saved = await t.app.inject({
      method: 'PUT',
      url: painelUrl(),
      headers: staff.headers,
      payload: settings,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      modo: 'sorteio',
      sorteio: { vagas: 3, horas_para_pagar: 2, compromisso: null, sorteios: 0, inscritos: 0 },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/abertura/` })).json(),
    ).toMatchObject({ modo: 'sorteio' });
  });

  it('takes entries only in the window, one per CPF, with the category rules of a registration', async () => {
    const early = await enter(runners[0]!, tenK);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('sorteio_nao_aberto');

    clock = at(10);
    // The commitment is published before the window closes; the seed stays secret until the draw.
    const committed = await staffPost('compromisso');
    expect(committed.statusCode).toBe(200);
    const { compromisso } = committed.json().sorteio;
    expect(compromisso).toMatch(/^[0-9a-f]{64}$/);
    expect((await staffPost('compromisso')).json().code).toBe('compromisso_publicado');
    expect(await published()).toMatchObject({ compromisso, semente: null, ids_inscricoes: [] });

    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/events/${event.id}/sorteio/`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    const future = await enter(runners[0]!, tenK, { data_nascimento: '2999-01-01' });
    expect(future.statusCode).toBe(400);
    const otherEvent = await enter(runners[0]!, tenK + 1000);
    expect(otherEvent.statusCode).toBe(400);

    // Four want the 10 km (two places), four the 5 km.
    for (const [i, r] of runners.entries()) {
      const res = await enter(r, i < 4 ? tenK : fiveK);
      expect(res.statusCode).toBe(201);
      r.entry = LotteryEntrySchema.parse(res.json());
      expect(r.entry).toMatchObject({ estado: 'inscrito', posicao: null });
      expect(r.entry.cpf_mascarado).not.toContain(r.cpf.slice(3, 9));
    }
    const twice = await enter(runners[1]!, fiveK, { email: 'outro@example.com' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('cpf_ja_no_sorteio');
    const mail = await waitForMail(t.dataDir, runners[0]!.email, 'sorteio');
    expect(mail).toContain(`número ${runners[0]!.entry!.id}`);
    expect(mail).not.toContain(runners[0]!.cpf);
  });

  it('lets nobody register before the draw, and draws only after the window', async () => {
    const before = await register(runners[0]!, tenK);
    expect(before.statusCode).toBe(409);
    expect(before.json().code).toBe('inscricao_por_sorteio');
    const tooSoon = await staffPost('sortear');
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().code).toBe('sorteio_em_andamento');
    clock = at(60);
    const late = await enter(runners[0]!, tenK);
    expect(late.json().code).toBe('sorteio_fechado');
  });

  it('draws a result anyone can recompute from the published seed and entry ids', async () => {
    const res = await staffPost('sortear');
    expect(res.statusCode).toBe(200);
    expect(res.json().sorteio).toMatchObject({ sorteios: 1, inscritos: 8, aguardando_pagamento: 3 });
    const pub = await published();
    expect(createHash('sha256').update(pub.semente!).digest('hex')).toBe(pub.compromisso);
    expect(pub.ids_inscricoes).toEqual(runners.map((r) => r.entry!.id).sort((a, b) => a - b));
    // Recomputed here from the published data alone.
    const ranking = drawRanking(pub.semente!, pub.ids_inscricoes);
    expect(pub.classificacao).toEqual(ranking);
    // The first three in the ranking whose category still has a place (the 10 km has two).
    const room = new Map([
      [tenK, 2],
      [fiveK, 50],
    ]);
    const expected: number[] = [];
    for (const id of ranking) {
      const category = runnerOf(id).entry!.categoria;
      if (expected.length < 3 && room.get(category)! > 0) {
        room.set(category, room.get(category)! - 1);
        expected.push(id);
      }
    }
    expect(pub.sorteios).toEqual([{ numero: 1, ids: expected }]);

    for (const r of runners) {
      const [entry] = await mine(r);
      const won = expected.includes(r.entry!.id);
      expect(entry!.estado).toBe(won ? 'sorteado' : 'nao_sorteado');
      expect(entry!.posicao).toBe(ranking.indexOf(r.entry!.id) + 1);
      if (won) expect(entry!.pagar_ate).toBe(new Date(at(60).getTime() + 2 * 60 * MINUTE).toISOString());
    }
    const winner = runnerOf(expected[0]!);
    // A draw queues one e-mail per entry; on a loaded machine the worker takes a while to send them all.
    expect(await waitForMail(t.dataDir, winner.email, 'foi sorteado', DRAW_MAIL_MS)).toContain(
      'reservada até',
    );
    const loser = runners.find((r) => !expected.includes(r.entry!.id))!;
    expect(await waitForMail(t.dataDir, loser.email, 'resultado do sorteio', DRAW_MAIL_MS)).toContain(
      'pode ser sorteado(a) depois',
    );

    const again = await staffPost('sortear');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('nada_a_sortear');
  });

  it('lets a winner pay within the deadline, in the category drawn, once', async () => {
    const drawn = (await published()).sorteios[0]!.ids;
    const winner = runnerOf(drawn[0]!);
    const loser = runners.find((r) => !drawn.includes(r.entry!.id))!;
    const refused = await register(loser, loser.entry!.categoria);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('nao_sorteado');
    const otherCategory = await register(winner, winner.entry!.categoria === tenK ? fiveK : tenK);
    expect(otherCategory.statusCode).toBe(409);
    expect(otherCategory.json().code).toBe('categoria_do_sorteio');

    const paid = await register(winner, winner.entry!.categoria);
    expect(paid.statusCode).toBe(201);
    // Another account paying for the same winner (a friend, a second device signed in elsewhere): refused,
    // so one drawn place never becomes two held places.
    const byFriend = await register({ ...winner, headers: loser.headers }, winner.entry!.categoria);
    expect(byFriend.statusCode).toBe(409);
    expect(byFriend.json().code).toBe('limite_por_cpf');
    expect((await simulatePixPaid(t.app, paid.json().txid)).statusCode).toBe(200);
    expect((await mine(winner))[0]!.estado).toBe('pago');
    expect((await painel()).sorteio).toMatchObject({ pagos: 1, aguardando_pagamento: 2, expirados: 0 });
  });

  it('expires unpaid winners at the deadline and gives their places to the next in the ranking', async () => {
    const pub = await published();
    const unpaid = pub.sorteios[0]!.ids.slice(1);
    clock = at(60 + 121);
    const late = await register(runnerOf(unpaid[0]!), runnerOf(unpaid[0]!).entry!.categoria);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('prazo_do_sorteio_encerrado');
    expect((await painel()).sorteio).toMatchObject({ pagos: 1, aguardando_pagamento: 0, expirados: 2 });
    expect((await mine(runnerOf(unpaid[0]!)))[0]!.estado).toBe('expirado');

    const further = await staffPost('sortear');
    expect(further.statusCode).toBe(200);
    expect(further.json().sorteio).toMatchObject({ sorteios: 2, aguardando_pagamento: 2 });
    const after = await published();
    // The next two in the ranking not drawn before whose category has room (the 10 km counts its paid place).
    const paidCategory = runnerOf(pub.sorteios[0]!.ids[0]!).entry!.categoria;
    const room = new Map([
      [tenK, 2 - (paidCategory === tenK ? 1 : 0)],
      [fiveK, 50 - (paidCategory === fiveK ? 1 : 0)],
    ]);
    const drawnBefore = new Set(pub.sorteios[0]!.ids);
    const expected: number[] = [];
    for (const id of after.classificacao) {
      const category = runnerOf(id).entry!.categoria;
      if (!drawnBefore.has(id) && expected.length < 2 && room.get(category)! > 0) {
        room.set(category, room.get(category)! - 1);
        expected.push(id);
      }
    }
    expect(after.sorteios[1]).toEqual({ numero: 2, ids: expected });
    // The seed and ranking do not change with a further draw.
    expect(after.classificacao).toEqual(pub.classificacao);
    expect(after.semente).toBe(pub.semente);

    const next = runnerOf(expected[0]!);
    expect((await mine(next))[0]).toMatchObject({
      estado: 'sorteado',
      pagar_ate: new Date(at(181).getTime() + 2 * 60 * MINUTE).toISOString(),
    });
    await waitForMail(t.dataDir, next.email, 'foi sorteado', DRAW_MAIL_MS);
    const paid = await register(next, next.entry!.categoria);
    expect(paid.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, paid.json().txid)).statusCode).toBe(200);
    expect((await painel()).sorteio).toMatchObject({ pagos: 2, aguardando_pagamento: 1, expirados: 2 });
  });

  it('never sells the 10 km beyond its places, and keeps one for each winner still within the deadline', async () => {
    const [row] = await t.app.db.select().from(eventCategories).where(eq(eventCategories.id, tenK));
    const states = await Promise.all(
      runners.filter((r) => r.entry!.categoria === tenK).map(async (r) => (await mine(r))[0]!.estado),
    );
    const paid = states.filter((s) => s === 'pago').length;
    const waiting = states.filter((s) => s === 'sorteado').length;
    expect(paid + row!.placesLeft).toBe(2);
    expect(row!.placesLeft).toBeGreaterThanOrEqual(waiting);
  });

  it('lists its people for the organiser: states, search, pages and a CSV, the CPF masked on screen', async () => {
    const listUrl = (query = '') => `/api/painel/events/${event.id}/sorteio/inscricoes/${query}`;
    const list = async (query = '') => {
      const res = await t.app.inject({ method: 'GET', url: listUrl(query), headers: staff.headers });
      expect(res.statusCode).toBe(200);
      return PainelLotteryEntryPageSchema.parse(res.json());
    };
    const operador = await createStaffAndLogin(t.app, 'operador');
    expect(
      (await t.app.inject({ method: 'GET', url: listUrl(), headers: operador.headers })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/events/${event.id}/sorteio/inscricoes.csv`,
          headers: operador.headers,
        })
      ).statusCode,
    ).toBe(403);

    // Every entry with the state its runner sees, the CPF masked.
    const all = await list();
    expect(all.count).toBe(8);
    expect(all.results.map((e) => e.id)).toEqual(runners.map((r) => r.entry!.id).sort((a, b) => a - b));
    for (const r of runners) {
      const listed = all.results.find((e) => e.id === r.entry!.id)!;
      const own = (await mine(r))[0]!;
      expect(listed).toMatchObject({
        nome_completo: own.nome_completo,
        cpf_mascarado: own.cpf_mascarado,
        categoria_nome: own.categoria_nome,
        estado: own.estado,
        posicao: own.posicao,
      });
    }
    const body = JSON.stringify(all);
    expect(runners.some((r) => body.includes(r.cpf))).toBe(false);
    const counts = (await painel()).sorteio!;
    expect((await list('?estado=pago')).count).toBe(counts.pagos);
    expect((await list('?estado=expirado')).results.every((e) => e.estado === 'expirado')).toBe(true);
    expect((await list('?estado=expirado')).count).toBe(counts.expirados);
    expect((await list('?estado=sorteado')).count).toBe(counts.aguardando_pagamento);

    // Searched on the server: a whole CPF typed with its dots, the entry's number, a name.
    const someone = runners[3]!;
    const formatted = someone.cpf.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4');
    expect((await list(`?busca=${encodeURIComponent(formatted)}`)).results.map((e) => e.id)).toEqual([
      someone.entry!.id,
    ]);
    // (a number also finds names and e-mails holding it, as the orders' search does)
    expect((await list(`?busca=${someone.entry!.id}`)).results.map((e) => e.id)).toContain(someone.entry!.id);
    expect(
      (await list(`?busca=${encodeURIComponent(`corredor ${someone.id}`)}`)).results.map((e) => e.id),
    ).toContain(someone.entry!.id);
    expect((await list('?busca=ninguem-com-este-nome')).count).toBe(0);
    const bad = await t.app.inject({ method: 'GET', url: listUrl('?estado=talvez'), headers: staff.headers });
    expect(bad.statusCode).toBe(400);

    // Pages of 50: sixty more entries (written straight to the table) make two pages, none repeated.
    await t.app.db.insert(lotteryEntries).values(
      Array.from({ length: 60 }, (_, i) => ({
        eventId: event.id,
        categoryId: fiveK,
        userId: runners[0]!.id,
        fullName: `Corredora Em Massa ${i}`,
        cpf: cpfFrom(733_400_000 + i),
        email: `massa${i}@example.com`,
        birthDate: '1992-03-04',
      })),
    );
    const first = await list('?pagina=1');
    const second = await list('?pagina=2');
    expect(first).toMatchObject({ count: 68, page_size: 50 });
    expect(first.results).toHaveLength(50);
    expect(second.results).toHaveLength(18);
    const ids = [...first.results, ...second.results].map((e) => e.id);
    expect(new Set(ids).size).toBe(68);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await list('?busca=em%20massa&pagina=2')).results).toHaveLength(10);

    // The CSV: the list's filters, every page, the CPF whole for the organiser's own checks.
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/painel/events/${event.id}/sorteio/inscricoes.csv?estado=pago`,
      headers: staff.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(LOTTERY_ENTRIES_CSV_HEADER.join(';'));
    expect(lines).toHaveLength(1 + counts.pagos);
    const paidRunners = runners.filter((r) => lines.some((l) => l.startsWith(`${r.entry!.id};`)));
    expect(paidRunners).toHaveLength(counts.pagos);
    for (const r of paidRunners) {
      const cells = lines.find((l) => l.startsWith(`${r.entry!.id};`))!.split(';');
      expect(cells[2]).toBe(r.cpf);
      expect(cells[5]).toBe('Pagou');
    }
    const everyone = await t.app.inject({
      method: 'GET',
      url: `/api/painel/events/${event.id}/sorteio/inscricoes.csv`,
      headers: staff.headers,
    });
    expect(everyone.body.trimEnd().split('\r\n')).toHaveLength(1 + 68);

    const without = await makeEvent(t.app.db, { name: 'Corrida Sem Sorteio' });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/events/${without.id}/sorteio/inscricoes/`,
          headers: staff.headers,
        })
      ).statusCode,
    ).toBe(404);
    // An id past PostgreSQL's integer is refused as bad input, never sent to the database.
    for (const url of [
      '/api/painel/events/99999999999/sorteio/inscricoes/',
      '/api/painel/events/1e3/sorteio/inscricoes.csv',
    ]) {
      const bad = await t.app.inject({ method: 'GET', url, headers: staff.headers });
      expect(bad.statusCode, url).toBe(400);
    }
  });

  it('removes an opening nobody joined, and keeps one with runners', async () => {
    const other = await makeEvent(t.app.db, { name: 'Corrida Sem Abertura' });
    const url = `/api/painel/events/${other.id}/abertura/`;
    const fila = { ...settings, modo: 'fila', abre_em: at(600).toISOString(), sorteio: null };
    expect(
      (await t.app.inject({ method: 'PUT', url, headers: staff.headers, payload: fila })).statusCode,
    ).toBe(200);
    const operador = await createStaffAndLogin(t.app, 'operador');
    expect((await t.app.inject({ method: 'DELETE', url, headers: operador.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url, headers: staff.headers })).statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/events/${other.id}/abertura/` })).json(),
    ).toBeNull();
    expect((await t.app.inject({ method: 'DELETE', url, headers: staff.headers })).statusCode).toBe(404);
    const kept = await t.app.inject({ method: 'DELETE', url: painelUrl(), headers: staff.headers });
    expect(kept.statusCode).toBe(409);
    expect(kept.json().code).toBe('abertura_com_corredores');
  });
});
