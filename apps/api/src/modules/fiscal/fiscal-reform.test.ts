import { randomUUID } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import type { NfeInput, NfseInput } from '../../providers/invoicing/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { documentsOf, fiscalForm, paidCardOrder, saveProductFiscal } from '../../test/factories/fiscal.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { pdfLines } from '../../test/pdf-text.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * The notas through the tax reform (docs/decisions/0059): the demo's NF-e XML read back with an
 * independent reader (fast-xml-parser) and every IBS/CBS group checked against NT 2025.002-RTC, by
 * regime and date; the recipient's full address; and the strict Focus fake refusing as SEFAZ and the
 * cities do.
 */

/** 2 December 2026, noon in Fortaleza. */
const DEC_2026 = new Date('2026-12-02T15:00:00Z');

const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });
const cents = (v: string) => Math.round(Number(v) * 100);
const asList = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);

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

describe('the demo issuer’s NF-e in December 2026', () => {
  const t = useClockedTestApp(DEC_2026);
  let admin: TestStaff;
  let recife: Buyer;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    // Another state (CFOP 6108), a house number 1000 and a complement.
    recife = await makeBuyer(t.app, {
      zip_code: '50050-000',
      state: 'PE',
      city: 'Recife',
      neighborhood: 'Boa Vista',
      street: 'Rua da Aurora',
      number: '1000',
      complement: 'apto 201',
    });
  }, 60_000);

  async function orderXml(regime: string, quantity = 3) {
    await saveSettings(t.app, admin.headers, { regime });
    const product = await makeProduct(t.database.db, { priceCents: 12_990 });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, recife, product, quantity);
    await untilJobsDone(t.database.db, 'fiscal.issue-order');
    const doc = (await documentsOf(t.database.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(doc.status, doc.reason ?? '').toBe('autorizada');
    return { doc, nfe: xml.parse(doc.xml!.toString()).nfeProc.NFe.infNFe };
  }

  it('regime normal: every item carries IBSCBS at the 2026 rates and the totals carry IBSCBSTot', async () => {
    const { doc, nfe } = await orderXml('regime_normal');
    expect(nfe.emit.CRT).toBe('3');
    // Anexo VII v1.03.00: a sale not in person, delivered to the address the buyer gave.
    expect(nfe.ide.cIndOp).toBe('010103');
    const items = asList(nfe.det);
    expect(items.length).toBeGreaterThan(0);
    let base = 0;
    let uf = 0;
    let cbs = 0;
    for (const det of items) {
      const prod = det.prod;
      const g = det.imposto.IBSCBS;
      expect(g.CST).toBe('000');
      expect(g.cClassTrib).toBe('000001');
      const vBC = cents(g.gIBSCBS.vBC);
      // The base: the item's value plus its freight less its discount.
      expect(vBC).toBe(cents(prod.vProd) + cents(prod.vFrete ?? '0') - cents(prod.vDesc ?? '0'));
      expect(g.gIBSCBS.gIBSUF.pIBSUF).toBe('0.1000');
      expect(g.gIBSCBS.gIBSMun.pIBSMun).toBe('0.0000');
      expect(g.gIBSCBS.gCBS.pCBS).toBe('0.9000');
      // Each value within the note's 0.01 of vBC × p / 100 (ours: half a centavo, rounded half up).
      expect(Math.abs(cents(g.gIBSCBS.gIBSUF.vIBSUF) - vBC * 0.001)).toBeLessThanOrEqual(0.5);
      expect(g.gIBSCBS.gIBSMun.vIBSMun).toBe('0.00');
      expect(Math.abs(cents(g.gIBSCBS.gCBS.vCBS) - vBC * 0.009)).toBeLessThanOrEqual(0.5);
      expect(cents(g.gIBSCBS.vIBS)).toBe(cents(g.gIBSCBS.gIBSUF.vIBSUF) + cents(g.gIBSCBS.gIBSMun.vIBSMun));
      base += vBC;
      uf += cents(g.gIBSCBS.gIBSUF.vIBSUF);
      cbs += cents(g.gIBSCBS.gCBS.vCBS);
    }
    const tot = nfe.total.IBSCBSTot;
    expect(cents(tot.vBCIBSCBS)).toBe(base);
    expect(cents(tot.gIBS.gIBSUF.vIBSUF)).toBe(uf);
    expect(tot.gIBS.gIBSMun.vIBSMun).toBe('0.00');
    expect(cents(tot.gIBS.vIBS)).toBe(uf);
    expect(cents(tot.gCBS.vCBS)).toBe(cbs);
    // The base is what the buyer paid: products + freight − discount = vNF.
    const icms = nfe.total.ICMSTot;
    expect(base).toBe(cents(icms.vProd) + cents(icms.vFrete) - cents(icms.vDesc));
    expect(cents(icms.vNF)).toBe(doc.amountCents);
    // The items' freight adds up to the nota's.
    expect(items.reduce((s, d) => s + cents(d.prod.vFrete ?? '0'), 0)).toBe(cents(icms.vFrete));
    // The DANFE shows them.
    const lines = pdfLines(doc.pdf!);
    expect(lines).toContain('CBS (0,90 %)');
    expect(lines).toContain('IBS DA UF (0,10 %)');
    expect(lines).toContain((cbs / 100).toFixed(2).replace('.', ','));
  });

  it('the recipient’s address is whole: number 1000 (not S/N), the complement and the IBGE code of the city', async () => {
    const { nfe } = await orderXml('simples_nacional', 1);
    const dest = nfe.dest.enderDest;
    expect(dest).toMatchObject({
      xLgr: 'Rua da Aurora',
      nro: '1000',
      xCpl: 'apto 201',
      xBairro: 'Boa Vista',
      cMun: '2611606',
      xMun: 'Recife',
      UF: 'PE',
      CEP: '50050000',
    });
    expect(asList(nfe.det)[0].prod.CFOP).toBe('6108');
  });

  it('Simples Nacional in 2026: no IBSCBS group yet (LC 214/2025, art. 348: from 2027)', async () => {
    const { nfe } = await orderXml('simples_nacional', 1);
    expect(nfe.emit.CRT).toBe('1');
    expect(asList(nfe.det)[0].imposto.IBSCBS).toBeUndefined();
    expect(nfe.total.IBSCBSTot).toBeUndefined();
  });
});

describe('the strict Focus fake rejects as SEFAZ does', () => {
  let fake: FakeFocus;
  const address = {
    street: 'Av. Beira Mar',
    number: '3000',
    district: 'Meireles',
    city: 'Fortaleza',
    cityCode: '2304400',
    uf: 'CE',
    cep: '60165121',
  };
  const group = (rates: { uf: number; mun: number; cbs: number }) => ({
    situation: '000',
    classification: '000001',
    baseCents: 10_000,
    ibsUfRate: rates.uf,
    ibsUfCents: Math.round((10_000 * rates.uf) / 1_000_000),
    ibsMunRate: rates.mun,
    ibsMunCents: Math.round((10_000 * rates.mun) / 1_000_000),
    ibsCents: Math.round((10_000 * rates.uf) / 1_000_000) + Math.round((10_000 * rates.mun) / 1_000_000),
    cbsRate: rates.cbs,
    cbsCents: Math.round((10_000 * rates.cbs) / 1_000_000),
  });
  const nfe = (
    regime: NfeInput['emitter']['regime'],
    issuedAt: string,
    ibsCbs: ReturnType<typeof group> | null,
  ): NfeInput => ({
    ref: `reforma-${randomUUID().slice(0, 8)}`,
    purpose: 1,
    operation: 'Venda de mercadoria',
    issuedAt: new Date(issuedAt),
    number: 1,
    series: 1,
    emitter: { cnpj: '12ABC34501DE35', ie: '061234567', im: '1', name: 'Passada', regime, address },
    recipient: { name: 'Maria Silva', cpf: '40364478829', email: null, address },
    items: [
      {
        code: '1',
        description: 'Camiseta',
        ncm: '61091000',
        origin: 0,
        cfop: '5102',
        icmsSituation: '102',
        pisSituation: '49',
        cofinsSituation: '49',
        quantity: 1,
        unitCents: 10_000,
        totalCents: 10_000,
        shippingCents: 0,
        discountCents: 0,
        ibsCbs,
      },
    ],
    shippingCents: 0,
    discountCents: 0,
    totalCents: 10_000,
    ibsCbsTotals: ibsCbs
      ? {
          baseCents: ibsCbs.baseCents,
          ibsUfCents: ibsCbs.ibsUfCents,
          ibsMunCents: ibsCbs.ibsMunCents,
          ibsCents: ibsCbs.ibsCents,
          cbsCents: ibsCbs.cbsCents,
        }
      : null,
  });
  const RIGHT_2026 = { uf: 1000, mun: 0, cbs: 9000 };

  beforeAll(async () => {
    fake = await startFakeFocus();
  });
  afterAll(() => fake.close());

  /** Sends and reads the verdict (the fake answers 202, then the GET the verdict). */
  async function verdict(input: NfeInput) {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    expect(await provider.issueNfe(input)).toEqual({ state: 'processando' });
    expect(fake.invalid).toEqual([]);
    // The first reading answers "processando", the next one SEFAZ's verdict.
    expect(await provider.consultNfe(input.ref)).toEqual({ state: 'processando' });
    return provider.consultNfe(input.ref);
  }

  it('1115 for CRT 3 without the group from 05/01/2026 (noon in Brasília), not the day before', async () => {
    expect(await verdict(nfe('regime_normal', '2026-01-05T15:00:00Z', null))).toMatchObject({
      state: 'rejeitada',
      code: '1115',
      message: 'Rejeição: IBS/CBS não informado [nItem: 1]',
    });
    expect(await verdict(nfe('regime_normal', '2026-01-04T15:00:00Z', null))).toMatchObject({
      state: 'autorizada',
    });
    expect(await verdict(nfe('regime_normal', '2026-12-02T15:00:00Z', group(RIGHT_2026)))).toMatchObject({
      state: 'autorizada',
    });
  });

  it('1115 for CRT 1, 2 and 4 (MEI) on notas dated from 2027, none in 2026', async () => {
    for (const regime of ['simples_nacional', 'simples_excesso', 'mei'] as const) {
      expect(await verdict(nfe(regime, '2026-12-31T15:00:00Z', null))).toMatchObject({ state: 'autorizada' });
      expect(await verdict(nfe(regime, '2027-01-01T15:00:00Z', null))).toMatchObject({
        state: 'rejeitada',
        code: '1115',
      });
    }
    // 23:30 on 31/12/2026 in Brasília is already 2027 in UTC: still 2026 for SEFAZ.
    expect(await verdict(nfe('simples_nacional', '2027-01-01T02:30:00Z', null))).toMatchObject({
      state: 'autorizada',
    });
  });

  it('an NF-e’s cIndOp, when sent, is a goods code of Anexo VII other than an auction’s', async () => {
    const sale = nfe('regime_normal', '2026-12-02T15:00:00Z', group(RIGHT_2026));
    expect(await verdict({ ...sale, operationIndicator: '010103' })).toMatchObject({ state: 'autorizada' });
    for (const operationIndicator of ['010104', '030102'])
      expect(
        await verdict({ ...sale, ref: `${sale.ref}-${operationIndicator}`, operationIndicator }),
      ).toMatchObject({
        state: 'rejeitada',
        code: 'RTC-cIndOp',
      });
  });

  it('1026, 1036 and 1037 for a 2026 rate other than 0.1 %, 0 and 0.9 %', async () => {
    for (const [rates, code] of [
      [{ ...RIGHT_2026, uf: 500 }, '1026'],
      [{ ...RIGHT_2026, mun: 500 }, '1036'],
      [{ ...RIGHT_2026, cbs: 8800 }, '1037'],
    ] as const)
      expect(await verdict(nfe('regime_normal', '2026-12-02T15:00:00Z', group(rates)))).toMatchObject({
        state: 'rejeitada',
        code,
      });
  });

  it('refuses a value that is not base × rate and totals that are not the items’ sums', async () => {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    const wrong = nfe('regime_normal', '2026-12-02T15:00:00Z', { ...group(RIGHT_2026), cbsCents: 95 });
    await expect(provider.issueNfe(wrong)).rejects.toMatchObject({ code: 'erro_validacao_schema' });
    expect(fake.invalid).toContain('cbs_valor difere do calculado');
    fake.invalid.length = 0;
  });

  const nfse = (over: Partial<NfseInput> = {}): NfseInput => ({
    ref: `reforma-nfse-${randomUUID().slice(0, 8)}`,
    issuedAt: DEC_2026,
    number: 1,
    emitter: {
      cnpj: '12ABC34501DE35',
      ie: '061234567',
      im: '1234567',
      name: 'Passada',
      regime: 'simples_nacional',
      address,
    },
    taker: { name: 'Maria Silva', cpf: '40364478829', email: null, address: null },
    serviceCode: '12.11',
    nationalCode: '121101',
    nbs: '',
    incidenceCityCode: '2304400',
    cnae: '',
    municipalCode: '',
    description: 'Inscrição',
    amountCents: 8990,
    competence: '2026-12-02',
    ibsCbs: null,
    ...over,
  });
  async function nfseVerdict(input: NfseInput) {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    await provider.issueNfse(input);
    await provider.consultNfse(input.ref);
    return provider.consultNfse(input.ref);
  }

  it('an MEI’s NFS-e names Simples option 2 and is authorised without the group in 2026', async () => {
    const input = nfse({ emitter: { ...nfse().emitter, regime: 'mei' } });
    expect(await nfseVerdict(input)).toMatchObject({ state: 'autorizada' });
    expect(fake.docs.get(input.ref)!.body.codigo_opcao_simples_nacional).toBe(2);
  });

  it('an NFS-e without cTribNac, or without a field its city requires (Natal: taker address and NBS)', async () => {
    expect(await nfseVerdict(nfse())).toMatchObject({ state: 'autorizada' });
    expect(await nfseVerdict(nfse({ nationalCode: '' }))).toMatchObject({
      state: 'rejeitada',
      code: 'E0310',
    });
    const natal = { ...address, city: 'Natal', cityCode: '2408102', uf: 'RN', cep: '59020000' };
    const emitter = { ...nfse().emitter, address: natal };
    expect(await nfseVerdict(nfse({ emitter }))).toMatchObject({ state: 'rejeitada', code: 'E0316' });
    expect(await nfseVerdict(nfse({ emitter, nbs: '126031100' }))).toMatchObject({
      state: 'rejeitada',
      code: 'E0240',
    });
    expect(
      await nfseVerdict(
        nfse({
          emitter,
          nbs: '126031100',
          taker: { name: 'Maria Silva', cpf: '40364478829', email: null, address: natal },
        }),
      ),
    ).toMatchObject({ state: 'autorizada' });
  });
});
