import { randomUUID } from 'node:crypto';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { eq } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fiscalDocuments } from '../../db/schema/index.ts';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import type { NfseInput } from '../../providers/invoicing/index.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import { fiscalForm } from '../../test/factories/fiscal.ts';
import { makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { pdfLines } from '../../test/pdf-text.ts';
import { createTestApp, type TestApp, useClockedTestApp } from '../../test/test-app.ts';
import { untilSeen } from '../../test/wait-until.ts';

/**
 * IBS and CBS on the registrations' NFS-e (NFS-e Padrão Nacional, NT 004; docs/decisions/0059, later):
 * the demo issuer's NFS-e XML read back with an independent reader (fast-xml-parser) and its group
 * checked against the rates of the year computed here, by regime and date; the Focus request carrying
 * the group under Focus's names; the strict fake refusing a wrong rate or value, accepting a DPS without
 * the group in 2026 (its obligation suspended by NT 004 v2.0) and refusing it from 2027.
 */

/** 2 December 2026, noon in Fortaleza. */
const DEC_2026 = new Date('2026-12-02T15:00:00Z');
/** 4 January 2027, noon in Fortaleza. */
const JAN_2027 = new Date('2027-01-04T15:00:00Z');

const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });
const cents = (v: string) => Math.round(Number(v) * 100);

async function saveSettings(
  app: FastifyInstance,
  headers: Record<string, string>,
  over: Record<string, unknown>,
) {
  const current = await app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers });
  const res = await app.inject({
    method: 'PUT',
    url: '/api/painel/fiscal/',
    headers,
    payload: { ...fiscalForm(over), versao: current.json().versao },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A registration paid by card on the event, and its NFS-e once settled (authorised or stopped). */
async function registrationNota(t: TestApp, event: MadeEvent, cpfSeed: number) {
  const res = await registrationCard(t.app, {
    number: '4111111111111111',
    draft: participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(cpfSeed) }),
    total: 89.9,
    user: await makeBuyer(t.app),
    key: randomUUID(),
  });
  expect(res.statusCode, res.body).toBe(200);
  const registrationId: number = res.json().inscricao_id ?? res.json().id;
  // The nota goes through the job queue and the provider's polls: room for a loaded machine.
  const doc = await untilSeen(
    async () =>
      (
        await t.database.db
          .select()
          .from(fiscalDocuments)
          .where(eq(fiscalDocuments.registrationId, registrationId))
      )[0],
    (d) => d?.status === 'autorizada' || d?.status === 'erro',
    60_000,
  );
  return { registrationId, doc: doc! };
}

/** The 2026 test rates, written here from LC 214/2025 art. 343, not read from the shop's table. */
const expected2026 = (baseCents: number) => ({
  uf: Math.round(baseCents / 1000),
  mun: 0,
  cbs: Math.round((baseCents * 9) / 1000),
});

describe("the demo issuer's NFS-e of a registration", { timeout: 180_000 }, () => {
  const t = useClockedTestApp(DEC_2026);
  let admin: TestStaff;
  let event: MadeEvent;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    const today = dateInTimeZone(DEC_2026, STORE_TIME_ZONE);
    event = await makeEvent(t.database.db, { today, name: 'Corrida da Reforma', city: 'Sobral' });
  }, 60_000);

  it('regime normal in 2026: IBSCBS in the DPS (CST, cClassTrib) and on the NFS-e (base, rates, values)', async () => {
    await saveSettings(t.app, admin.headers, { regime: 'regime_normal' });
    const { doc } = await registrationNota(t, event, 773_000_001);
    expect(doc.status, doc.reason ?? '').toBe('autorizada');
    const inf = xml.parse(doc.xml!.toString()).CompNfse.Nfse.InfNfse;
    const value = cents(inf.Servico.Valores.ValorServicos);
    expect(value).toBe(doc.amountCents);
    expect(inf.Competencia).toBe('2026-12-02');

    // What the provider declares in its DPS.
    const dps = inf.DPS.infDPS.IBSCBS;
    expect(dps.finNFSe).toBe('0');
    expect(dps.indFinal).toBe('1');
    // Anexo VII v1.03.00: a service enjoyed in person away from the supplier's establishment.
    expect(dps.cIndOp).toBe('030102');
    expect(dps.valores.trib.gIBSCBS).toEqual({ CST: '000', cClassTrib: '000001' });

    // What the national system writes on the NFS-e: the base is the service's value, due where the
    // event takes place (Sobral/CE), at 0.10 % + 0 % and 0.90 %.
    const g = inf.IBSCBS;
    expect(g.cLocalidadeIncid).toBe('2312908');
    expect(cents(g.valores.vBC)).toBe(value);
    expect(g.valores.uf.pIBSUF).toBe('0.10');
    expect(g.valores.mun.pIBSMun).toBe('0.00');
    expect(g.valores.fed.pCBS).toBe('0.90');
    const want = expected2026(value);
    expect(cents(g.totCIBS.gIBS.gIBSUFTot.vIBSUF)).toBe(want.uf);
    expect(cents(g.totCIBS.gIBS.gIBSMunTot.vIBSMun)).toBe(want.mun);
    expect(cents(g.totCIBS.gIBS.vIBSTot)).toBe(want.uf + want.mun);
    expect(cents(g.totCIBS.gCBS.vCBS)).toBe(want.cbs);

    // The DANFSe shows them.
    const lines = pdfLines(doc.pdf!);
    expect(lines).toContain('CBS (0,90 %)');
    expect(lines).toContain((want.cbs / 100).toFixed(2).replace('.', ','));
  });

  it('Simples Nacional in 2026: no IBSCBS group yet (LC 214/2025, art. 348: from 2027)', async () => {
    await saveSettings(t.app, admin.headers, { regime: 'simples_nacional' });
    const { doc } = await registrationNota(t, event, 773_000_002);
    expect(doc.status, doc.reason ?? '').toBe('autorizada');
    const inf = xml.parse(doc.xml!.toString()).CompNfse.Nfse.InfNfse;
    expect(inf.IBSCBS).toBeUndefined();
    expect(inf.DPS).toBeUndefined();
  });
});

describe("a Simples shop's NFS-e in 2027", { timeout: 180_000 }, () => {
  const t = useClockedTestApp(JAN_2027);

  it('owes the group, and stops with the reason while the CBS rate of 2027 is not in the table', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    await saveSettings(t.app, admin.headers, { regime: 'simples_nacional' });
    const today = dateInTimeZone(JAN_2027, STORE_TIME_ZONE);
    const event = await makeEvent(t.database.db, { today, name: 'Corrida de 2027' });
    const { doc } = await registrationNota(t, event, 773_000_003);
    expect(doc.status).toBe('erro');
    expect(doc.reason).toContain('as alíquotas de IBS e CBS de 2027 ainda não estão na tabela da loja');
    expect(doc.xml).toBeNull();
  });
});

describe('the NFS-e through Focus NFe', { timeout: 180_000 }, () => {
  let fake: FakeFocus;
  let t: TestApp;
  const clock = { now: DEC_2026 };

  beforeAll(async () => {
    fake = await startFakeFocus();
    t = await createTestApp({
      now: () => clock.now,
      providers: {
        invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 }),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake.close();
  });
  // Each test reads the fake's schema failures of its own requests.
  beforeEach(() => {
    fake.invalid.length = 0;
  });

  it("a regime-normal shop's registration in December 2026 sends the group under Focus's names", async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    await saveSettings(t.app, admin.headers, { regime: 'regime_normal' });
    const today = dateInTimeZone(DEC_2026, STORE_TIME_ZONE);
    const event = await makeEvent(t.database.db, { today, name: 'Corrida da Reforma pela Focus' });
    const { registrationId, doc } = await registrationNota(t, event, 773_000_004);
    expect(doc.status, doc.reason ?? '').toBe('autorizada');
    expect(fake.invalid).toEqual([]);
    const body = fake.docs.get(`passada-inscricao-${registrationId}-nfse`)!.body;
    expect(body.codigo_opcao_simples_nacional).toBe(1);
    const servico = body.servico as Record<string, string>;
    const value = cents(servico.valor_servicos!);
    const want = expected2026(value);
    expect(servico).toMatchObject({
      ibs_cbs_situacao_tributaria: '000',
      ibs_cbs_classificacao_tributaria: '000001',
      ibs_uf_aliquota: '0.1000',
      ibs_mun_aliquota: '0.0000',
      cbs_aliquota: '0.9000',
    });
    expect(cents(servico.ibs_cbs_base_calculo!)).toBe(value);
    expect(cents(servico.ibs_uf_valor!)).toBe(want.uf);
    expect(cents(servico.ibs_mun_valor!)).toBe(want.mun);
    expect(cents(servico.cbs_valor!)).toBe(want.cbs);
  });

  const address = {
    street: 'Av. Beira Mar',
    number: '3000',
    district: 'Meireles',
    city: 'Fortaleza',
    cityCode: '2304400',
    uf: 'CE',
    cep: '60165121',
  };
  /** The 2026 group on R$ 100.00, with the rates (ten-thousandths of a percent) given. */
  const group = (rates: { uf: number; mun: number; cbs: number }) => ({
    situation: '000',
    classification: '000001',
    baseCents: 10_000,
    ibsUfRate: rates.uf,
    ibsUfCents: (10_000 * rates.uf) / 1_000_000,
    ibsMunRate: rates.mun,
    ibsMunCents: (10_000 * rates.mun) / 1_000_000,
    ibsCents: (10_000 * (rates.uf + rates.mun)) / 1_000_000,
    cbsRate: rates.cbs,
    cbsCents: (10_000 * rates.cbs) / 1_000_000,
  });
  const RIGHT_2026 = { uf: 1000, mun: 0, cbs: 9000 };
  const nfse = (
    regime: NfseInput['emitter']['regime'],
    issuedAt: Date,
    ibsCbs: NfseInput['ibsCbs'],
  ): NfseInput => ({
    ref: `reforma-nfse-${randomUUID().slice(0, 8)}`,
    issuedAt,
    number: 1,
    emitter: { cnpj: '12ABC34501DE35', ie: '061234567', im: '1234567', name: 'Passada', regime, address },
    taker: { name: 'Maria Silva', cpf: '40364478829', email: null, address: null },
    serviceCode: '12.11',
    nationalCode: '121101',
    nbs: '',
    incidenceCityCode: '2304400',
    cnae: '',
    municipalCode: '',
    description: 'Inscrição',
    amountCents: 10_000,
    competence: dateInTimeZone(issuedAt, STORE_TIME_ZONE),
    ibsCbs,
    ...(ibsCbs ? { operationIndicator: '030102' } : {}),
  });
  /** Sends and reads the verdict (the fake answers 202, then "processando", then the verdict). */
  async function verdict(input: NfseInput) {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    expect(await provider.issueNfse(input)).toEqual({ state: 'processando' });
    expect(fake.invalid).toEqual([]);
    expect(await provider.consultNfse(input.ref)).toEqual({ state: 'processando' });
    return provider.consultNfse(input.ref);
  }

  it('refuses a 2026 rate other than 0.10 %, 0 and 0.90 %', async () => {
    expect(await verdict(nfse('regime_normal', DEC_2026, group(RIGHT_2026)))).toMatchObject({
      state: 'autorizada',
    });
    for (const [rates, code] of [
      [{ ...RIGHT_2026, uf: 500 }, 'RTC-pIBSUF'],
      [{ ...RIGHT_2026, mun: 500 }, 'RTC-pIBSMun'],
      [{ ...RIGHT_2026, cbs: 8800 }, 'RTC-pCBS'],
    ] as const)
      expect(await verdict(nfse('regime_normal', DEC_2026, group(rates)))).toMatchObject({
        state: 'rejeitada',
        code,
      });
  });

  it('refuses the group without the operation indicator of Anexo VII, or with a goods code', async () => {
    for (const operationIndicator of [undefined, '010103', '999999'])
      expect(
        await verdict({ ...nfse('regime_normal', DEC_2026, group(RIGHT_2026)), operationIndicator }),
      ).toMatchObject({ state: 'rejeitada', code: 'RTC-cIndOp' });
  });

  it('refuses a value that is not base × rate, or a base that is not the service’s value', async () => {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    const wrongValue = nfse('regime_normal', DEC_2026, { ...group(RIGHT_2026), cbsCents: 95 });
    await expect(provider.issueNfse(wrongValue)).rejects.toMatchObject({ code: 'erro_validacao_schema' });
    expect(fake.invalid).toEqual(['cbs_valor difere do calculado']);
    fake.invalid.length = 0;
    const wrongBase = nfse('regime_normal', DEC_2026, { ...group(RIGHT_2026), baseCents: 9_000 });
    await expect(provider.issueNfse(wrongBase)).rejects.toMatchObject({ code: 'erro_validacao_schema' });
    expect(fake.invalid).toContain('ibs_cbs_base_calculo difere do valor dos serviços');
    fake.invalid.length = 0;
    expect(fake.docs.has(wrongValue.ref)).toBe(false);
  });

  it('accepts a DPS without the group in 2026 (NT 004 v2.0), refuses it from 2027 in every regime', async () => {
    for (const regime of ['regime_normal', 'simples_nacional'] as const) {
      expect(await verdict(nfse(regime, DEC_2026, null))).toMatchObject({ state: 'autorizada' });
      expect(await verdict(nfse(regime, JAN_2027, null))).toMatchObject({
        state: 'rejeitada',
        code: 'RTC-IBSCBS',
      });
    }
    // 23:30 on 31/12/2026 in Brasília is already 2027 in UTC: a competência of 2026.
    expect(await verdict(nfse('simples_nacional', new Date('2027-01-01T02:30:00Z'), null))).toMatchObject({
      state: 'autorizada',
    });
  });

  it("a month's nota of December issued on 2 January carries December's group and rates (its competência)", async () => {
    const clock = { now: new Date('2026-12-20T12:00:00-03:00') };
    const m = await createTestApp({
      env: { NFSE_GROUPING: 'event_month' },
      now: () => clock.now,
      providers: {
        invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 }),
      },
    });
    try {
      let staff = await createStaffAndLogin(m.app, 'admin');
      await saveSettings(m.app, staff.headers, { regime: 'regime_normal' });
      const today = dateInTimeZone(clock.now, STORE_TIME_ZONE);
      const event = await makeEvent(m.database.db, { today, name: 'Corrida de Fim de Ano' });
      const res = await registrationCard(m.app, {
        number: '4111111111111111',
        draft: participant(event, [event.days[0]!.categories[0]!.id], { cpf: cpfFrom(773_000_005) }),
        total: 89.9,
        user: await makeBuyer(m.app),
        key: randomUUID(),
      });
      expect(res.statusCode, res.body).toBe(200);

      clock.now = new Date('2027-01-02T12:00:00-03:00');
      staff = await createStaffAndLogin(m.app, 'admin');
      const issued = await m.app.inject({
        method: 'POST',
        url: '/api/painel/fiscal/nfse-mensal/',
        headers: staff.headers,
        payload: { mes: '2026-12' },
      });
      expect(issued.statusCode, issued.body).toBeLessThan(300);
      const [nota] = await untilSeen(
        async () =>
          (
            await m.app.inject({
              method: 'GET',
              url: '/api/painel/fiscal/nfse-mensal/?mes=2026-12',
              headers: staff.headers,
            })
          ).json() as Array<{ status: string }>,
        (list) => list.length === 1 && (list[0]!.status === 'autorizada' || list[0]!.status === 'erro'),
        60_000,
      );
      expect(nota).toMatchObject({ status: 'autorizada' });
      expect(fake.invalid).toEqual([]);
      const body = fake.docs.get(`passada-evento-${event.id}-2026-12-nfse`)!.body;
      expect(body.data_competencia).toBe('2026-12-31');
      const servico = body.servico as Record<string, string>;
      const want = expected2026(cents(servico.valor_servicos!));
      expect(servico).toMatchObject({ ibs_uf_aliquota: '0.1000', cbs_aliquota: '0.9000' });
      expect(cents(servico.ibs_uf_valor!)).toBe(want.uf);
      expect(cents(servico.cbs_valor!)).toBe(want.cbs);
    } finally {
      await m.close();
    }
  });
});
