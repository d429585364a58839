import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  eventResults,
  registrationCategories,
  registrations,
  resultImports,
} from '../../db/schema/index.ts';
import { headTags, pageMeta } from '../../plugins/seo/page-meta.ts';
import { createUserAndToken, type TestUser } from '../../test/factories/accounts.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { pdfQrCode } from '../../test/pdf-reader.ts';
import { pdfLines } from '../../test/pdf-text.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-22T12:00:00Z');
const RACE_DAY = '2026-12-22';

interface Runner {
  name: string;
  gender: 'Masculino' | 'Feminino';
  birth: string;
  team?: string;
  km: 5 | 10;
}

const RUNNERS: Runner[] = [
  { name: 'Ana Lima', gender: 'Feminino', birth: '1990-03-01', team: 'Assessoria Sol', km: 10 },
  { name: 'Bruna Costa', gender: 'Feminino', birth: '1988-06-10', km: 10 },
  { name: 'Carla Dias', gender: 'Feminino', birth: '1975-01-01', km: 10 },
  { name: 'Davi Rocha', gender: 'Masculino', birth: '1992-02-02', team: 'Assessoria Sol', km: 10 },
  { name: 'Eduardo Melo', gender: 'Masculino', birth: '1991-07-07', km: 10 },
  { name: 'Fábio Nunes', gender: 'Masculino', birth: '1968-05-05', km: 10 },
  { name: 'Gustavo Pires', gender: 'Masculino', birth: '1993-09-09', km: 10 },
  { name: 'Helena Souza', gender: 'Feminino', birth: '1995-04-04', km: 10 },
  { name: 'Igor Teles', gender: 'Masculino', birth: '1994-08-08', km: 10 },
  { name: 'Joana Alves', gender: 'Feminino', birth: '2000-01-01', km: 5 },
  { name: 'Kleber Bastos', gender: 'Masculino', birth: '1999-12-12', km: 5 },
  { name: 'Lucas Vaz', gender: 'Masculino', birth: '2001-11-11', km: 5 },
];

/** What a published file says of a runner, to check the places against. */
interface Said {
  name: string;
  status: 'OK' | 'DNF' | 'DSQ' | 'DNS';
  gun?: number;
  net?: number;
}

/** Seconds from "h:mm:ss" / "mm:ss" with an optional decimal comma, written here apart from the code. */
function seconds(text: string): number {
  const [whole, frac = '0'] = text.split(',');
  const parts = whole!.split(':').map(Number);
  while (parts.length < 3) parts.unshift(0);
  return parts[0]! * 3600 + parts[1]! * 60 + parts[2]! + Number(`0.${frac}`);
}

/**
 * The oracle: places by counting, not sorting. A finisher's place in a group is one more than the
 * finishers of that group strictly faster; overall and gender by gun time, age group by net time (gun
 * when there is none). The age group is worked out here from the birth date and the race day.
 */
function oracle(said: Said[]) {
  const info = (n: string) => RUNNERS.find((r) => r.name === n)!;
  const group = (n: string) => {
    const r = info(n);
    const [y, m, d] = r.birth.split('-').map(Number) as [number, number, number];
    const [ry, rm, rd] = RACE_DAY.split('-').map(Number) as [number, number, number];
    const age = ry - y - (rm < m || (rm === m && rd < d) ? 1 : 0);
    return `${r.gender[0]}${Math.floor(age / 5) * 5}-${Math.floor(age / 5) * 5 + 4}`;
  };
  const finishers = said.filter((s) => s.status === 'OK');
  const out = new Map<string, { geral: number | null; genero: number | null; faixa: number | null }>();
  for (const s of said) {
    if (s.status !== 'OK') {
      out.set(s.name, { geral: null, genero: null, faixa: null });
      continue;
    }
    const race = finishers.filter((f) => info(f.name).km === info(s.name).km);
    const net = (x: Said) => x.net ?? x.gun!;
    out.set(s.name, {
      geral: 1 + race.filter((f) => f.gun! < s.gun!).length,
      genero: 1 + race.filter((f) => info(f.name).gender === info(s.name).gender && f.gun! < s.gun!).length,
      faixa: 1 + race.filter((f) => group(f.name) === group(s.name) && net(f) < net(s)).length,
    });
  }
  return { places: out, group };
}

describe('results: a timer file imported, previewed, published and read by anyone', () => {
  let t: TestApp;
  let user: TestUser;
  let manager: TestStaff;
  let operator: TestStaff;
  let event: MadeEvent;
  let timerId: number;
  const bibOf = new Map<string, number>();
  const next = participantsFrom(640000001);

  const painel = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, who = manager) =>
    t.app.inject({ method, url: `/api/painel${url}`, headers: who.headers, ...(payload ? { payload } : {}) });
  const importFile = (conteudo: string, who = manager) =>
    painel(
      'POST',
      `/events/${event.id}/resultados/importacoes/`,
      {
        cronometragem: timerId,
        nome_arquivo: 'resultado.csv',
        conteudo,
      },
      who,
    );
  const publicList = (query = '') =>
    t.app.inject({ method: 'GET', url: `/api/events/${event.id}/resultados/${query}` });

  beforeAll(async () => {
    t = await createTestApp({ now: () => START, env: { PAYMENTS_RATE_LIMIT_PER_ACCOUNT: '500' } });
    user = await createUserAndToken(t.app);
    manager = await createStaffAndLogin(t.app, 'gerente');
    operator = await createStaffAndLogin(t.app, 'operador');
    event = await makeEvent(t.app.db, {
      name: 'Corrida dos Resultados',
      today: '2026-11-22',
      startDate: RACE_DAY,
    });
    const [fiveKm, tenKm] = event.days[0]!.categories;
    for (const r of RUNNERS) {
      const draft = next(event, r.name, (r.km === 5 ? fiveKm : tenKm)!.id, {
        genero: r.gender,
        data_nascimento: r.birth,
        email: `corredor${bibOf.size + RUNNERS.indexOf(r)}@example.com`,
        ...(r.team ? { equipe: r.team } : {}),
      });
      const price = await registrationPix(t.app, draft, 0.01, user.headers);
      expect(price.json().total_correto, price.body).toBeDefined();
      const pix = await registrationPix(t.app, draft, price.json().total_correto, user.headers);
      expect(pix.statusCode, `${r.name}: ${pix.body}`).toBe(201);
      expect((await simulatePixPaid(t.app, pix.json().txid)).statusCode).toBe(200);
    }
    const bibs = await painel('POST', `/events/${event.id}/numeros-de-peito/`, {
      modo: 'categorias',
      faixas: [
        { categoria: tenKm!.id, inicio: 100 },
        { categoria: fiveKm!.id, inicio: 500 },
      ],
    });
    expect(bibs.statusCode).toBe(200);
    const rows = await t.app.db
      .select({ name: registrations.fullName, bib: registrationCategories.bib })
      .from(registrationCategories)
      .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
      .where(eq(registrations.eventId, event.id));
    for (const r of rows) bibOf.set(r.name, r.bib!);
    const timer = await painel('POST', '/cronometragens/', {
      nome: 'Chip Nordeste',
      colunas: {
        numero: 'Num',
        tempo_bruto: 'Tempo Bruto',
        tempo_liquido: 'Tempo Líquido',
        situacao: 'Status',
      },
    });
    expect(timer.statusCode).toBe(201);
    timerId = timer.json().id;
  });
  afterAll(() => t.close());

  const b = (name: string) => bibOf.get(name)!;

  it('previews a pt-BR file with an unknown bib, a bad time, a repeated bib, DNF, DSQ and DNS; publishes the rest with the places of an independent count', async () => {
    const file = [
      'Num;Nome;Tempo Bruto;Tempo Liquido;Status;Chip',
      `${b('Ana Lima')};Ana;0:45:00;0:44:30;;A1`,
      `${b('Bruna Costa')};Bruna;0:44:55;0:44:54;;A2`,
      `${b('Carla Dias')};Carla;0:52:10,5;0:51:00;;A3`,
      `${b('Davi Rocha')};Davi;0:40:00;0:39:50;;A4`,
      `${b('Eduardo Melo')};Eduardo;0:40:00;0:39:40;;A5`,
      `${b('Fábio Nunes')};"Nunes; Fábio";0:41:30;;OK;A6`,
      `${b('Gustavo Pires')};Gustavo;;;DNF;A7`,
      `${b('Helena Souza')};Helena;0:50:00;;DSQ;A8`,
      `${b('Igor Teles')};Igor;;;DNS;A9`,
      '999;Zé Ninguém;0:55:00;;;B1',
      `${b('Joana Alves')};Joana;25:10;25:05;;C1`,
      `${b('Kleber Bastos')};Kleber;0:2x:00;;;C2`,
      `${b('Lucas Vaz')};Lucas;0:22:00;;;C3`,
      `${b('Lucas Vaz')};Lucas;0:22:30;;;C3`,
    ].join('\r\n');
    const preview = await importFile(`\uFEFF${file}`);
    expect(preview.statusCode).toBe(201);
    const p = preview.json();
    expect(p).toMatchObject({ linhas: 14, validas: 10, situacao: 'previa' });
    expect(p.por_situacao).toEqual({ OK: 7, DNF: 1, DSQ: 1, DNS: 1 });
    expect(p.problemas.map((x: { linha: number; codigo: string }) => [x.linha, x.codigo])).toEqual([
      [11, 'numero_desconhecido'],
      [13, 'tempo_invalido'],
      [14, 'numero_repetido'],
      [15, 'numero_repetido'],
    ]);
    // Nothing is public before publishing.
    expect((await publicList()).json()).toMatchObject({ publicado: false, count: 0 });

    const published = await painel('POST', `/events/${event.id}/resultados/importacoes/${p.id}/publicar/`);
    expect(published.statusCode).toBe(200);
    expect(published.json()).toEqual({ publicados: 10, ignorados: 4, substituidos: 0 });
    // The same preview cannot be published twice.
    const again = await painel('POST', `/events/${event.id}/resultados/importacoes/${p.id}/publicar/`);
    expect(again.statusCode).toBe(409);

    const said: Said[] = [
      { name: 'Ana Lima', status: 'OK', gun: seconds('0:45:00'), net: seconds('0:44:30') },
      { name: 'Bruna Costa', status: 'OK', gun: seconds('0:44:55'), net: seconds('0:44:54') },
      { name: 'Carla Dias', status: 'OK', gun: seconds('0:52:10,5'), net: seconds('0:51:00') },
      { name: 'Davi Rocha', status: 'OK', gun: seconds('0:40:00'), net: seconds('0:39:50') },
      { name: 'Eduardo Melo', status: 'OK', gun: seconds('0:40:00'), net: seconds('0:39:40') },
      { name: 'Fábio Nunes', status: 'OK', gun: seconds('0:41:30') },
      { name: 'Gustavo Pires', status: 'DNF' },
      { name: 'Helena Souza', status: 'DSQ' },
      { name: 'Igor Teles', status: 'DNS' },
      { name: 'Joana Alves', status: 'OK', gun: seconds('25:10'), net: seconds('25:05') },
    ];
    const { places, group } = oracle(said);
    const list = await publicList('?page_size=100');
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.count).toBe(10);
    for (const row of body.results) {
      const name = row.nome as string;
      expect({ name, ...places.get(name), faixa_etaria: group(name) }).toEqual({
        name,
        geral: row.colocacao_geral,
        genero: row.colocacao_genero,
        faixa: row.colocacao_faixa,
        faixa_etaria: row.faixa_etaria,
      });
    }
    // Ties share a place; Bruna is ahead of Ana on gun time, behind her in their age group on net time.
    const by = (n: string) => body.results.find((r: { nome: string }) => r.nome === n);
    expect([by('Davi Rocha').colocacao_geral, by('Eduardo Melo').colocacao_geral]).toEqual([1, 1]);
    expect(by('Fábio Nunes').colocacao_geral).toBe(3);
    expect([by('Bruna Costa').colocacao_genero, by('Ana Lima').colocacao_genero]).toEqual([1, 2]);
    expect([by('Ana Lima').colocacao_faixa, by('Bruna Costa').colocacao_faixa]).toEqual([1, 2]);
    // Finishers by place, then DNF, DSQ and DNS, kept apart.
    expect(
      body.results
        .filter((r: { categoria: string }) => r.categoria === '10 km')
        .map((r: { situacao: string }) => r.situacao),
    ).toEqual(['OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'DNF', 'DSQ', 'DNS']);
    expect(by('Carla Dias')).toMatchObject({
      tempo_bruto: '0:52:10,5',
      tempo_liquido: '0:51:00',
      ritmo: '5:06/km',
    });
    // No CPF, birth date, e-mail or phone in a public answer.
    expect(list.body).not.toMatch(/cpf|nascimento|email|telefone|1990-03-01|\d{3}\.\d{3}\.\d{3}-\d{2}/i);
  });

  it('a second file from the same timer, with its columns in another order and tab-separated, replaces the results without duplicating them', async () => {
    const file = [
      'STATUS\tTempo líquido\tEquipe\tnum\ttempo bruto',
      `\t0:38:50\tSol\t${b('Ana Lima')}\t0:39:00`,
      `\t\t\t${b('Bruna Costa')}\t0:44:55`,
      `\t\t\t${b('Carla Dias')}\t0:52:10`,
      `\t\t\t${b('Davi Rocha')}\t0:40:00`,
      `\t\t\t${b('Eduardo Melo')}\t0:40:01`,
      `DNF\t\t\t${b('Fábio Nunes')}\t`,
      `\t\t\t${b('Gustavo Pires')}\t0:47:00`,
      `DSQ\t\t\t${b('Helena Souza')}\t`,
      `DNS\t\t\t${b('Igor Teles')}\t`,
      `\t\t\t${b('Joana Alves')}\t0:25:10`,
      `\t\t\t${b('Kleber Bastos')}\t0:23:00`,
      `\t\t\t${b('Lucas Vaz')}\t0:22:00`,
    ].join('\n');
    const preview = await importFile(file);
    expect(preview.statusCode).toBe(201);
    expect(preview.json()).toMatchObject({ linhas: 12, validas: 12, problemas: [] });
    const published = await painel(
      'POST',
      `/events/${event.id}/resultados/importacoes/${preview.json().id}/publicar/`,
    );
    expect(published.json()).toEqual({ publicados: 12, ignorados: 0, substituidos: 10 });
    expect(await t.app.db.select().from(eventResults).where(eq(eventResults.eventId, event.id))).toHaveLength(
      12,
    );

    const said: Said[] = [
      { name: 'Ana Lima', status: 'OK', gun: 2340, net: 2330 },
      { name: 'Bruna Costa', status: 'OK', gun: 2695 },
      { name: 'Carla Dias', status: 'OK', gun: 3130 },
      { name: 'Davi Rocha', status: 'OK', gun: 2400 },
      { name: 'Eduardo Melo', status: 'OK', gun: 2401 },
      { name: 'Fábio Nunes', status: 'DNF' },
      { name: 'Gustavo Pires', status: 'OK', gun: 2820 },
      { name: 'Helena Souza', status: 'DSQ' },
      { name: 'Igor Teles', status: 'DNS' },
      { name: 'Joana Alves', status: 'OK', gun: 1510 },
      { name: 'Kleber Bastos', status: 'OK', gun: 1380 },
      { name: 'Lucas Vaz', status: 'OK', gun: 1320 },
    ];
    const { places } = oracle(said);
    const body = (await publicList('?page_size=100')).json();
    expect(body.count).toBe(12);
    for (const row of body.results) {
      expect([row.nome, row.colocacao_geral, row.colocacao_genero, row.colocacao_faixa]).toEqual([
        row.nome,
        places.get(row.nome)!.geral,
        places.get(row.nome)!.genero,
        places.get(row.nome)!.faixa,
      ]);
    }
    const imports = await t.app.db.select().from(resultImports).where(eq(resultImports.eventId, event.id));
    expect(imports.map((i) => i.status).sort()).toEqual(['publicada', 'substituida']);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'resultados_publicados'), eq(auditLog.entityId, String(event.id))));
    expect(audits).toHaveLength(2);
  });

  it('searches by name without accents, by bib and by team, filters and pages', async () => {
    const names = async (q: string) =>
      (await publicList(q)).json().results.map((r: { nome: string }) => r.nome);
    expect(await names('?busca=fabio')).toEqual(['Fábio Nunes']);
    expect(await names(`?busca=${b('Joana Alves')}`)).toEqual(['Joana Alves']);
    expect(await names('?busca=assessoria%20sol')).toEqual(['Ana Lima', 'Davi Rocha']);
    const tenKm = event.days[0]!.categories[1]!.id;
    expect(await names(`?categoria=${tenKm}&genero=Feminino`)).toEqual([
      'Ana Lima',
      'Bruna Costa',
      'Carla Dias',
      'Helena Souza',
    ]);
    expect(await names('?faixa=F35-39')).toEqual(['Ana Lima', 'Bruna Costa']);
    const page = (await publicList('?page_size=5&page=3')).json();
    expect(page).toMatchObject({ count: 12, page: 3, pages: 3 });
    expect(page.results).toHaveLength(2);
    expect(page.filtros.faixas).toContain('M55-59');
    expect((await publicList('?genero=Outro')).statusCode).toBe(400);
  });

  it("answers a runner's own result: times, pace per km and places out of how many finished", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/resultados/${b('Ana Lima')}/`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      evento: { id: event.id, nome: 'Corrida dos Resultados' },
      provas: [
        {
          nome: 'Ana Lima',
          categoria: '10 km',
          distancia_km: 10,
          tempo_bruto: '0:39:00',
          tempo_liquido: '0:38:50',
          ritmo: '3:53/km',
          colocacao_geral: 1,
          concluintes_geral: 6,
          concluintes_genero: 3,
          concluintes_faixa: 2,
        },
      ],
    });
    expect(res.body).not.toMatch(/cpf|nascimento/i);
    const none = await t.app.inject({ method: 'GET', url: `/api/events/${event.id}/resultados/999/` });
    expect(none.statusCode).toBe(404);
    // The page's head, written by the server, shares the time and place (Open Graph), never a CPF.
    const meta = await pageMeta(t.app, `/eventos/resultados/${event.id}/${b('Ana Lima')}`);
    expect(meta).toMatchObject({ status: 200, title: 'Ana Lima: resultado na Corrida dos Resultados' });
    const { tags } = headTags(
      meta,
      `/eventos/resultados/${event.id}/${b('Ana Lima')}`,
      'https://loja.test',
      'Passada',
    );
    expect(tags).toContain(
      '<meta property="og:title" content="Ana Lima: resultado na Corrida dos Resultados">',
    );
    expect(tags).toContain('10 km: 0:38:50, 1º de 6');
    expect((await pageMeta(t.app, `/eventos/resultados/${event.id}/999`)).status).toBe(404);
    expect((await pageMeta(t.app, `/eventos/resultados/${event.id}/abc`)).status).toBe(404);
  });

  it('keeps the public answers (304 to a client that has one) until a name they show changes', async () => {
    const url = `/api/events/${event.id}/resultados/${b('Ana Lima')}/`;
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.headers.etag).toBeTruthy();
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(again.statusCode).toBe(304);
    const list = await publicList('?busca=ana');
    expect(
      list
        .json()
        .results.map((r: { nome: string }) => r.nome)
        .sort(),
    ).toEqual(['Ana Lima', 'Joana Alves']);
    // Any writer of the name (a correction, a transfer, an erasure) moves it: a trigger notifies on commit.
    const setName = (from: string, to: string) =>
      t.app.db
        .update(registrations)
        .set({ fullName: to })
        .where(and(eq(registrations.eventId, event.id), eq(registrations.fullName, from)));
    await setName('Ana Lima', 'Ana Lima Sampaio');
    try {
      await expect
        .poll(async () => (await t.app.inject({ method: 'GET', url })).json().provas[0].nome)
        .toBe('Ana Lima Sampaio');
      const changed = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': first.headers.etag! },
      });
      expect(changed.statusCode).toBe(200);
      expect(
        (await publicList('?busca=sampaio')).json().results.map((r: { nome: string }) => r.nome),
      ).toEqual(['Ana Lima Sampaio']);
    } finally {
      await setName('Ana Lima Sampaio', 'Ana Lima');
    }
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url })).json().provas[0].nome)
      .toBe('Ana Lima');
  });

  it('lists in "Minha conta" the results of the registrations the account made, and no one else\'s', async () => {
    const mine = await t.app.inject({ method: 'GET', url: '/api/resultados/meus/', headers: user.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toHaveLength(12);
    expect(mine.json()).toContainEqual(
      expect.objectContaining({
        nome: 'Ana Lima',
        numero: b('Ana Lima'),
        tempo: '0:38:50',
        colocacao_geral: 1,
      }),
    );
    const stranger = await createUserAndToken(t.app);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/resultados/meus/', headers: stranger.headers })).json(),
    ).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/resultados/meus/' })).statusCode).toBe(401);
  });

  it("prints a finisher's certificate whose QR code verifies on the shop, and stops verifying once the time is corrected", async () => {
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/resultados/${b('Ana Lima')}/certificado.pdf`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfLines(pdf.rawPayload).join('\n');
    expect(text).toContain('Ana Lima');
    expect(text).toContain('Tempo bruto: 0:39:00');
    const url = /\/api\/resultados\/certificados\/([^/\s]+)\//.exec(text)?.[0];
    expect(url).toBeDefined();
    // The QR code, read from the page's image as a phone reads it, is the address the page prints.
    const scanned = await pdfQrCode(pdf.rawPayload, 1);
    expect(scanned).toBe(`${t.env.publicUrl.replace(/\/+$/, '')}${url}`);
    const check = await t.app.inject({ method: 'GET', url: url! });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({
      valido: true,
      nome: 'Ana Lima',
      tempo_bruto: '0:39:00',
      colocacao_geral: 1,
    });
    // A code changed by hand (another time) does not verify.
    const forged = url!.replace('.2340000.', '.2300000.');
    expect(forged).not.toBe(url);
    expect((await t.app.inject({ method: 'GET', url: forged })).json()).toMatchObject({
      code: 'certificado_invalido',
    });
    // No certificate for who did not finish.
    const dnf = await t.app.inject({
      method: 'GET',
      url: `/api/events/${event.id}/resultados/${b('Fábio Nunes')}/certificado.pdf`,
    });
    expect(dnf.statusCode).toBe(404);

    // A corrected file changes Ana's time: the old certificate no longer matches what is published.
    const preview = await importFile(`Num;Tempo Bruto;Tempo Liquido;Status\n${b('Ana Lima')};0:39:05;;`);
    await painel('POST', `/events/${event.id}/resultados/importacoes/${preview.json().id}/publicar/`);
    const stale = await t.app.inject({ method: 'GET', url: url! });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'certificado_desatualizado' });
  });

  it('refuses a file without the timer’s columns, an unknown timer and staff without the events permission; nothing is kept', async () => {
    const before = (await t.app.db.select().from(resultImports)).length;
    const missing = await importFile('Numero;Tempo\n1;0:40:00');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'colunas_ausentes' });
    expect(missing.json().detail).toContain('"Num"');
    const unknownTimer = await painel('POST', `/events/${event.id}/resultados/importacoes/`, {
      cronometragem: 999999,
      conteudo: 'Num;Tempo Bruto\n1;0:40:00',
    });
    expect(unknownTimer.statusCode).toBe(404);
    const forbidden = await importFile('Num;Tempo Bruto;Tempo Liquido;Status\n1;0:40:00;;', operator);
    expect(forbidden.statusCode).toBe(403);
    expect((await t.app.db.select().from(resultImports)).length).toBe(before);
    const sameName = await painel('POST', '/cronometragens/', {
      nome: 'chip nordeste',
      colunas: { numero: 'N', tempo_bruto: 'T' },
    });
    expect(sameName.statusCode).toBe(409);
  });
});
