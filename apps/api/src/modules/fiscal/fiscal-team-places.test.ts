import { randomUUID } from 'node:crypto';
import { type MyNotas, MyNotasSchema } from '@passada/core/contracts/fiscal';
import { MyTeamSchema } from '@passada/core/contracts/teams';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import { createUserAndToken, type TestUser, waitForMail } from '../../test/factories/accounts.ts';
import { saveFiscalSettings } from '../../test/factories/fiscal.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { cardToken } from '../../test/factories/payments.ts';
import { OTHER_CPF, participantsFrom } from '../../test/factories/registrations.ts';
import { makeTeam, TEAMS_START, teamsRace } from '../../test/factories/teams.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

/** The XML read back by a parser of its own, not the code that wrote it. */
const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });

const COMPANY = {
  cnpj: '11.222.333/0001-81',
  razao_social: 'Construtora Vento Norte Ltda',
  email: 'Financeiro@VentoNorte.example.com',
  endereco: {
    zip_code: '60165-121',
    state: 'ce',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    street: 'Av. Beira Mar',
    number: '1200',
    complement: 'Sala 3',
  },
};

/** The captain's card payment of a team's places (the simulated card approves 4111…). */
async function buyPlaces(t: TestApp, captain: TestUser, draft: Record<string, unknown>, total: number) {
  return t.app.inject({
    method: 'POST',
    url: '/api/pagar-cartao/',
    headers: { ...captain.headers, 'idempotency-key': randomUUID() },
    payload: {
      birth: '1985-07-30',
      payment_token: await cardToken(t.app, {
        number: '4111111111111111',
        holderName: 'Titular da Empresa',
        holderDocument: OTHER_CPF,
      }),
      name: 'Titular da Empresa',
      cpf: OTHER_CPF,
      email: captain.email,
      total,
      installments: 1,
      finalidade: 'vagas_equipe',
      vagas_equipe: draft,
    },
  });
}

/**
 * A company pays its team's places (docs/decisions/0077): the captain names the company at the purchase,
 * paid by card; one NFS-e of the whole purchase is issued to its CNPJ and address, e-mailed to it, listed
 * to the captain, and read back from its XML; a wrong CNPJ is refused before any payment.
 */
describe('a team’s places paid by a company', { timeout: 120_000 }, () => {
  let t: TestApp;
  let captain: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ now: () => TEAMS_START });
    const admin = await createStaffAndLogin(t.app, 'admin');
    await saveFiscalSettings(t.app, admin.headers);
    captain = await createUserAndToken(t.app);
  });
  afterAll(() => t.close());

  const buy = (draft: Record<string, unknown>, total: number) => buyPlaces(t, captain, draft, total);
  /** The account's first nota of a team purchase or a registration, once authorised, and its NFS-e read back. */
  async function authorisedNfse(
    who: { headers: Record<string, string> },
    kind: 'equipes' | 'inscricoes',
    id: number,
  ) {
    const [nota] = await untilSeen(
      async () =>
        MyNotasSchema.parse(
          (await t.app.inject({ method: 'GET', url: '/api/notas/', headers: who.headers })).json(),
        )[kind][String(id)] ?? [],
      (list) => list[0]?.status === 'autorizada',
      60_000,
    );
    return xml.parse((await t.app.inject({ method: 'GET', url: nota!.xml_url! })).body).CompNfse.Nfse.InfNfse;
  }

  it('one NFS-e of the purchase to the company’s CNPJ and address, read back from its XML', async () => {
    const race = await teamsRace(t.app, 'Corrida das Empresas');
    const tenK = race.days[0]!.categories[1]!.id;
    const team = await makeTeam(t.app, captain, 'Equipe Vento Norte', race.id);

    const wrong = await buy(
      {
        equipe: team.id,
        categoria: tenK,
        quantidade: 3,
        empresa: { ...COMPANY, cnpj: '11.222.333/0001-82' },
      },
      3 * 109.9,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toMatchObject({ 'empresa.cnpj': 'CNPJ inválido.' });

    const paid = await buy({ equipe: team.id, categoria: tenK, quantidade: 3, empresa: COMPANY }, 3 * 109.9);
    expect(paid.statusCode, paid.body).toBe(200);
    const batchId = paid.json().vagas_equipe_id as number;
    expect(batchId).toBeGreaterThan(0);

    const notas = async (): Promise<MyNotas> =>
      MyNotasSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/notas/', headers: captain.headers })).json(),
      );
    const [nota] = await untilSeen(
      async () => (await notas()).equipes[String(batchId)] ?? [],
      (list) => list[0]?.status === 'autorizada',
      60_000,
    );
    expect(nota).toMatchObject({ tipo: 'nfse', status: 'autorizada' });
    const file = await t.app.inject({ method: 'GET', url: nota!.xml_url! });
    expect(file.statusCode).toBe(200);
    const inf = xml.parse(file.body).CompNfse.Nfse.InfNfse;
    expect(inf.Servico.Valores.ValorServicos).toBe('329.70');
    expect(inf.Servico.Discriminacao).toContain('3 inscrições da equipe Equipe Vento Norte');
    const taker = inf.TomadorServico;
    expect(taker.IdentificacaoTomador.CpfCnpj).toEqual({ Cnpj: '11222333000181' });
    expect(taker.RazaoSocial).toBe('Construtora Vento Norte Ltda');
    expect(taker.Endereco).toMatchObject({
      Endereco: 'Av. Beira Mar',
      Numero: '1200',
      Complemento: 'Sala 3',
      Bairro: 'Meireles',
      CodigoMunicipio: '2304400',
      Uf: 'CE',
      Cep: '60165121',
    });
    // The e-mail with its links goes to the company's address, written as typed but in lower case.
    const mail = await waitForMail(t.dataDir, 'financeiro@ventonorte.example.com', 'Equipe Vento Norte');
    expect(mail).toContain('NFS-e');
    // One nota per purchase: asked again, the job finds it and sends nothing new.
    await t.app.fiscal.invoiceTeamPlaces(batchId);
    expect((await notas()).equipes[String(batchId)]).toHaveLength(1);
  });

  it('places nobody used refunded at the close: the nota is replaced by one of what was kept', async () => {
    const race = await teamsRace(t.app, 'Corrida da Nota Substituída');
    const tenK = race.days[0]!.categories[1]!.id;
    const team = await makeTeam(t.app, captain, 'Equipe Substituta', race.id);
    const paid = await buy({ equipe: team.id, categoria: tenK, quantidade: 3, empresa: COMPANY }, 3 * 109.9);
    expect(paid.statusCode, paid.body).toBe(200);
    const batchId = paid.json().vagas_equipe_id as number;
    const ofBatch = async () =>
      MyNotasSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/notas/', headers: captain.headers })).json(),
      ).equipes[String(batchId)] ?? [];
    await untilSeen(ofBatch, (list) => list[0]?.status === 'autorizada', 60_000);
    // One member claims a place; the captain closes the rest: two places' price back.
    const mine = MyTeamSchema.array().parse(
      (await t.app.inject({ method: 'GET', url: '/api/equipes/', headers: captain.headers })).json(),
    );
    const link = mine.find((x) => x.id === team.id)!.vagas[0]!.link;
    const member = await createUserAndToken(t.app);
    const claimed = await t.app.inject({
      method: 'POST',
      url: `/api/equipes/vagas/${link.split('/').pop()}/resgatar/`,
      headers: member.headers,
      payload: participantsFrom(774_100_000)(race, 'Membro Único', tenK),
    });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/equipes/${team.id}/vagas/${mine.find((x) => x.id === team.id)!.vagas[0]!.id}/encerrar/`,
      headers: captain.headers,
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const list = await untilSeen(
      ofBatch,
      (l) => l.length === 2 && l[0]?.status === 'cancelada' && l[1]?.status === 'autorizada',
      60_000,
    );
    const inf = xml.parse((await t.app.inject({ method: 'GET', url: list[1]!.xml_url! })).body).CompNfse.Nfse
      .InfNfse;
    expect(inf.Servico.Valores.ValorServicos).toBe('109.90');
    expect(inf.Servico.Discriminacao).toContain('devolvidas 2 vagas não usadas');
    expect(inf.TomadorServico.IdentificacaoTomador.CpfCnpj).toEqual({ Cnpj: '11222333000181' });
    // Asked again, nothing changes: one cancelled, one in force.
    await t.app.fiscal.invoiceTeamPlaces(batchId);
    expect((await ofBatch()).map((n) => n.status)).toEqual(['cancelada', 'autorizada']);
  });

  it('a company paying 60 % of each place: its NFS-e of the shares, and each member’s own of the rest', async () => {
    const race = await teamsRace(t.app, 'Corrida da Empresa Parceira');
    const tenK = race.days[0]!.categories[1]!.id;
    const team = await makeTeam(t.app, captain, 'Equipe Parceira', race.id);
    // R$ 109,90 a place: the company pays R$ 65,94 of each, the member R$ 43,96.
    const paid = await buy(
      { equipe: team.id, categoria: tenK, quantidade: 3, empresa: COMPANY, percentual: 60 },
      3 * 65.94,
    );
    expect(paid.statusCode, paid.body).toBe(200);
    const batchId = paid.json().vagas_equipe_id as number;
    const inf = await authorisedNfse(captain, 'equipes', batchId);
    expect(inf.Servico.Valores.ValorServicos).toBe('197.82');
    expect(inf.Servico.Discriminacao).toContain('60% de cada uma (o restante pago pelo corredor)');
    expect(inf.TomadorServico.IdentificacaoTomador.CpfCnpj).toEqual({ Cnpj: '11222333000181' });

    // A member pays the rest by card: the registration's own NFS-e, of R$ 43,96, to the member's CPF.
    const link = MyTeamSchema.array()
      .parse((await t.app.inject({ method: 'GET', url: '/api/equipes/', headers: captain.headers })).json())
      .find((x) => x.id === team.id)!.vagas[0]!.link;
    const member = await createUserAndToken(t.app);
    const runner = participantsFrom(774_200_000)(race, 'Membro Parceiro', tenK);
    const claimed = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...member.headers, 'idempotency-key': randomUUID() },
      payload: {
        birth: '1985-07-30',
        payment_token: await cardToken(t.app, {
          number: '4111111111111111',
          holderName: 'Membro Parceiro',
          holderDocument: OTHER_CPF,
        }),
        name: 'Membro Parceiro',
        cpf: OTHER_CPF,
        email: member.email,
        total: 43.96,
        installments: 1,
        finalidade: 'inscricao',
        inscricao: { vaga_equipe: link.split('/').pop(), participante: runner },
      },
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const registrationId = claimed.json().inscricao_id as number;
    const mine = await authorisedNfse(member, 'inscricoes', registrationId);
    expect(mine.Servico.Valores.ValorServicos).toBe('43.96');
    expect(mine.TomadorServico.IdentificacaoTomador.CpfCnpj).toEqual({ Cpf: runner.cpf });
  });

  it('without a company the purchase’s NFS-e names no taker', async () => {
    const race = await teamsRace(t.app, 'Corrida do Capitão Pagante');
    const tenK = race.days[0]!.categories[1]!.id;
    const team = await makeTeam(t.app, captain, 'Equipe do Capitão', race.id);
    const paid = await buy({ equipe: team.id, categoria: tenK, quantidade: 2 }, 2 * 109.9);
    expect(paid.statusCode, paid.body).toBe(200);
    const batchId = paid.json().vagas_equipe_id as number;
    const inf = await authorisedNfse(captain, 'equipes', batchId);
    expect(inf.TomadorServico).toBeUndefined();
    expect(inf.Servico.Valores.ValorServicos).toBe('219.80');
  });
});

/** The same purchase through the real Focus client against its strict fake: `tomador.cnpj`, not `cpf`. */
describe('a company’s NFS-e sent to Focus', { timeout: 120_000 }, () => {
  let fake: FakeFocus;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeFocus();
    t = await createTestApp({
      now: () => TEAMS_START,
      providers: {
        invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 }),
      },
    });
    await saveFiscalSettings(t.app, (await createStaffAndLogin(t.app, 'admin')).headers);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('names the company by its CNPJ, legal name, e-mail and address', async () => {
    const captain = await createUserAndToken(t.app);
    const race = await teamsRace(t.app, 'Corrida das Empresas na Focus');
    const team = await makeTeam(t.app, captain, 'Equipe Focada', race.id);
    const paid = await buyPlaces(
      t,
      captain,
      { equipe: team.id, categoria: race.days[0]!.categories[1]!.id, quantidade: 2, empresa: COMPANY },
      2 * 109.9,
    );
    expect(paid.statusCode, paid.body).toBe(200);
    const ref = `passada-equipe-vagas-${paid.json().vagas_equipe_id}-nfse`;
    const sent = await untilSeen(
      async () => fake.docs.get(ref),
      (d) => d !== undefined,
      60_000,
    );
    expect(fake.invalid).toEqual([]);
    expect(sent!.body.tomador).toEqual({
      cnpj: '11222333000181',
      razao_social: 'Construtora Vento Norte Ltda',
      email: 'financeiro@ventonorte.example.com',
      endereco: {
        logradouro: 'Av. Beira Mar',
        numero: '1200',
        complemento: 'Sala 3',
        bairro: 'Meireles',
        codigo_municipio: '2304400',
        uf: 'CE',
        cep: '60165121',
      },
    });
  });
});
