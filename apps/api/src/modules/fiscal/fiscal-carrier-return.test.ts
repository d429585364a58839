import { randomUUID } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccessKey } from '../../providers/invoicing/access-key.ts';
import { createFocusProvider, focusNfeBody } from '../../providers/invoicing/focus.provider.ts';
import { InvoicingRefused, type NfeInput } from '../../providers/invoicing/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { documentsOf, paidCardOrder, saveProductFiscal, saveRegime } from '../../test/factories/fiscal.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * A parcel the carrier brought back (docs/decisions/0059, later): staff refund the order on its page
 * saying what the carrier reported, and the shop issues the nota NT 2025.002-RTC assigns — a nota de
 * crédito tpNFCredito 03 (refused in full) or 06 (refused in part) where the NF-e declared IBS/CBS, the
 * whole order's devolução where it did not, nothing for a parcel lost in transit. The demo issuer's XML is
 * read back with fast-xml-parser; the strict Focus fake accepts the shape and refuses a wrong one.
 */

/** 2 December 2026, noon in Fortaleza. */
const DEC_2026 = new Date('2026-12-02T15:00:00Z');
const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });
const asList = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);

describe('a parcel the carrier brought back', () => {
  const t = useClockedTestApp(DEC_2026);
  let admin: TestStaff;
  let buyer: Buyer;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
  }, 60_000);

  /** A paid order with its NF-e authorised, shipped by staff unless `shipped` is false. */
  async function invoicedOrder(regime: string, shipped = true) {
    await saveRegime(t.app, admin.headers, regime);
    const product = await makeProduct(t.database.db, { priceCents: 12_990 });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product, 2);
    await untilJobsDone(t.database.db, 'fiscal.issue-order');
    const nfe = (await documentsOf(t.database.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(nfe.status, nfe.reason ?? '').toBe('autorizada');
    if (shipped)
      for (const payload of [
        { status: 'em separação' },
        { status: 'enviado', codigo_rastreio: 'AA123456785BR' },
      ]) {
        const moved = await t.app.inject({
          method: 'POST',
          url: `/api/painel/orders/${orderId}/status/`,
          headers: admin.headers,
          payload,
        });
        expect(moved.statusCode, moved.body).toBe(200);
      }
    return { orderId, nfe };
  }
  const refund = (orderId: number, valor: number, retorno: string, seen = 0) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/reembolsos/`,
      headers: admin.headers,
      payload: {
        valor,
        motivo: 'Devolvido pelos Correios ao remetente',
        reembolsos_vistos: seen,
        retorno_transportadora: retorno,
      },
    });
  const notas = async (orderId: number) => {
    await untilJobsDone(t.database.db, 'fiscal.order-reduced');
    return documentsOf(t.database.db, orderId);
  };

  it('refused in full, regime normal: a nota de crédito tpNFCredito 03 of everything the NF-e declares, as an entry with the devolução CFOP', async () => {
    const { orderId, nfe } = await invoicedOrder('regime_normal');
    // Part of the money only (the shop keeps the freight it paid): every unit still came back.
    expect((await refund(orderId, 50, 'recusa_total')).statusCode).toBe(200);
    const credit = (await notas(orderId)).find((d) => d.kind === 'nfe_credito')!;
    expect(credit.status, credit.reason ?? '').toBe('autorizada');
    expect(credit.amountCents).toBe(nfe.amountCents);
    const n = xml.parse(credit.xml!.toString()).nfeProc.NFe.infNFe;
    expect(n.ide).toMatchObject({ finNFe: '5', tpNFCredito: '03', tpNF: '0' });
    expect(n.ide.natOp).toBe('Nota de crédito - retorno por recusa total na entrega');
    expect(n.ide.NFref.refNFe).toBe(nfe.accessKey);
    for (const it of asList(n.det) as Array<{ prod: { CFOP: string }; imposto: object }>) {
      expect(it.prod.CFOP).toBe('1202');
      expect(Object.keys(it.imposto)).toEqual(['IBSCBS']);
    }
    expect(n.total.IBSCBSTot.vBCIBSCBS).toBe((nfe.amountCents / 100).toFixed(2));
  });

  it('refused in part, regime normal: a nota de crédito tpNFCredito 06 of the refund', async () => {
    const { orderId, nfe } = await invoicedOrder('regime_normal');
    expect((await refund(orderId, 129.9, 'recusa_parcial')).statusCode).toBe(200);
    const credit = (await notas(orderId)).find((d) => d.kind === 'nfe_credito')!;
    expect(credit.status, credit.reason ?? '').toBe('autorizada');
    expect(credit.amountCents).toBe(12_990);
    const n = xml.parse(credit.xml!.toString()).nfeProc.NFe.infNFe;
    expect(n.ide).toMatchObject({ finNFe: '5', tpNFCredito: '06', tpNF: '0' });
    expect(n.ide.NFref.refNFe).toBe(nfe.accessKey);
    expect(n.total.IBSCBSTot).toMatchObject({ vBCIBSCBS: '129.90', gCBS: { vCBS: '1.17' } });
  });

  it('lost in transit, regime normal: no nota de crédito but event 112130 on the NF-e, item by item as the NF-e declared them, once', async () => {
    const { orderId, nfe } = await invoicedOrder('regime_normal');
    expect((await refund(orderId, 50, 'extravio')).statusCode).toBe(200);
    const docs = await notas(orderId);
    expect(docs.map((d) => d.kind)).toEqual(['nfe', 'nfe_evento']);
    const event = docs[1]!;
    expect(event.status, event.reason ?? '').toBe('autorizada');
    expect(event.accessKey).toBe(nfe.accessKey);
    // The NF-e's own item, read back independently of the code that writes the event.
    const item = xml.parse(nfe.xml!.toString()).nfeProc.NFe.infNFe.det;
    const proc = xml.parse(event.xml!.toString()).procEventoNFe;
    const inf = proc.evento.infEvento;
    expect(inf['@_Id']).toBe(`ID112130${nfe.accessKey}01`);
    expect(inf).toMatchObject({
      chNFe: nfe.accessKey,
      tpEvento: '112130',
      nSeqEvento: '1',
      verEvento: '1.00',
    });
    expect(inf.detEvento).toMatchObject({
      descEvento: 'Perecimento, perda, roubo ou furto durante o transporte contratado pelo fornecedor',
      tpAutor: '1',
      cOrgaoAutor: '23',
    });
    const lost = asList(inf.detEvento.gPerecimento);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toEqual({
      '@_nItem': item['@_nItem'],
      vIBS: item.imposto.IBSCBS.gIBSCBS.vIBS,
      vCBS: item.imposto.IBSCBS.gIBSCBS.gCBS.vCBS,
      gControleEstoque: { qPerecimento: '2.0000', uPerecimento: item.prod.uCom, vIBS: '0.00', vCBS: '0.00' },
    });
    expect(Number(lost[0].vCBS)).toBeGreaterThan(0);
    expect(proc.retEvento.infEvento).toMatchObject({
      cStat: '135',
      chNFe: nfe.accessKey,
      tpEvento: '112130',
    });
    // A second refund of the same lost parcel records nothing more.
    expect((await refund(orderId, 20, 'extravio', 1)).statusCode).toBe(200);
    expect((await notas(orderId)).map((d) => d.kind)).toEqual(['nfe', 'nfe_evento']);
    // Staff see it with its XML; the buyer's list of notas does not carry it.
    const staffView = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/notas/`,
      headers: admin.headers,
    });
    const shown = staffView.json().find((n: { tipo: string }) => n.tipo === 'nfe_evento');
    expect(shown).toMatchObject({ status: 'autorizada', pdf_url: null, chave: nfe.accessKey });
    const file = await t.app.inject({ method: 'GET', url: shown.xml_url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('evento-nfe-1.xml');
    const mine = await t.app.inject({ method: 'GET', url: '/api/notas/', headers: buyer.headers });
    expect(mine.json().pedidos[orderId].map((n: { tipo: string }) => n.tipo)).toEqual(['nfe']);
  });

  it('lost in transit, Simples Nacional in 2026 (no IBS/CBS on the NF-e): nothing to record', async () => {
    const { orderId } = await invoicedOrder('simples_nacional');
    expect((await refund(orderId, 50, 'extravio')).statusCode).toBe(200);
    expect((await notas(orderId)).map((d) => d.kind)).toEqual(['nfe']);
  });

  it('refused in full, Simples Nacional in 2026 (no IBS/CBS on the NF-e): the whole order comes back with a devolução', async () => {
    const { orderId, nfe } = await invoicedOrder('simples_nacional');
    expect((await refund(orderId, 50, 'recusa_total')).statusCode).toBe(200);
    const docs = await notas(orderId);
    expect(docs.map((d) => d.kind).sort()).toEqual(['nfe', 'nfe_devolucao']);
    const back = docs.find((d) => d.kind === 'nfe_devolucao')!;
    expect(back.status, back.reason ?? '').toBe('autorizada');
    const n = xml.parse(back.xml!.toString()).nfeProc.NFe.infNFe;
    expect(n.ide).toMatchObject({ finNFe: '4', tpNF: '0' });
    expect(n.ide.NFref.refNFe).toBe(nfe.accessKey);
  });

  it('refuses a carrier return on an order that never shipped (409), refunding nothing and issuing no nota', async () => {
    const { orderId } = await invoicedOrder('regime_normal', false);
    const res = await refund(orderId, 50, 'recusa_total');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('pedido_nao_enviado');
    const left = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/reembolsos/`,
      headers: admin.headers,
    });
    expect(left.json().reembolsos).toEqual([]);
    expect((await notas(orderId)).map((d) => d.kind)).toEqual(['nfe']);
  });

  it('answers 400 for an unknown carrier outcome, refunding nothing', async () => {
    const { orderId } = await invoicedOrder('regime_normal');
    const res = await refund(orderId, 50, 'sumiu');
    expect(res.statusCode).toBe(400);
    const left = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/reembolsos/`,
      headers: admin.headers,
    });
    expect(left.json().reembolsos).toEqual([]);
  });
});

describe('the strict Focus fake and the return of a refused parcel', () => {
  let fake: FakeFocus;
  beforeAll(async () => {
    fake = await startFakeFocus();
  });
  afterAll(() => fake.close());

  const address = {
    street: 'Rua A',
    number: '10',
    district: 'Centro',
    city: 'Fortaleza',
    cityCode: '2304400',
    uf: 'CE',
    cep: '60000000',
  };
  const cnpj = '12ABC34501DE35';
  const saleKey = buildAccessKey({
    uf: 'CE',
    issuedAt: DEC_2026,
    cnpj,
    series: 1,
    number: 7,
    code: 10_000_007,
  });
  const refused = (creditType: '03' | '06'): NfeInput => ({
    ref: `recusa-${randomUUID().slice(0, 8)}`,
    purpose: 5,
    creditType,
    operation: 'Nota de crédito - retorno por recusa total na entrega',
    issuedAt: DEC_2026,
    number: 3,
    series: 1,
    emitter: { cnpj, ie: '061234567', im: '1', name: 'Passada', regime: 'regime_normal', address },
    recipient: { name: 'Maria Silva', cpf: '40364478829', email: null, address },
    items: [
      {
        code: '1',
        description: 'Camiseta',
        ncm: '61091000',
        origin: 0,
        cfop: '1202',
        icmsSituation: '00',
        pisSituation: '01',
        cofinsSituation: '01',
        quantity: 1,
        unitCents: 12_990,
        totalCents: 12_990,
        shippingCents: 0,
        discountCents: 0,
        ibsCbs: {
          situation: '000',
          classification: '000001',
          baseCents: 12_990,
          ibsUfRate: 1000,
          ibsUfCents: 13,
          ibsMunRate: 0,
          ibsMunCents: 0,
          ibsCents: 13,
          cbsRate: 9000,
          cbsCents: 117,
        },
      },
    ],
    shippingCents: 0,
    discountCents: 0,
    totalCents: 12_990,
    ibsCbsTotals: { baseCents: 12_990, ibsUfCents: 13, ibsMunCents: 0, ibsCents: 13, cbsCents: 117 },
    referencedKey: saleKey,
  });
  async function verdictOf(body: Record<string, unknown>) {
    const ref = `recusa-${randomUUID().slice(0, 8)}`;
    const auth = { authorization: `Basic ${Buffer.from(`${fake.token}:`).toString('base64')}` };
    const posted = await fetch(`${fake.url}/v2/nfe?ref=${ref}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(posted.status, await posted.clone().text()).toBe(202);
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    await provider.consultNfe(ref);
    return provider.consultNfe(ref);
  }

  it('authorises tpNFCredito 03 and 06 as our provider sends them', async () => {
    for (const type of ['03', '06'] as const) {
      const body = focusNfeBody(refused(type));
      expect(body).toMatchObject({ finalidade_emissao: 5, tipo_documento: 0, tipo_nota_credito: type });
      expect(await verdictOf(body)).toMatchObject({ state: 'autorizada' });
    }
  });

  it('sends no event 112130 (Focus documents no route for it) and tells staff what to register with SEFAZ', async () => {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 3000 });
    const before = fake.requests.length;
    const input = {
      ref: `extravio-${randomUUID().slice(0, 8)}`,
      type: '112130' as const,
      accessKey: saleKey,
      sequence: 1,
      issuedAt: DEC_2026,
      emitter: refused('03').emitter,
      items: [
        {
          item: 1,
          ibsCents: 13,
          cbsCents: 117,
          quantity: 1,
          unit: 'UN',
          purchaseIbsCents: 0,
          purchaseCbsCents: 0,
        },
      ],
    };
    expect(await provider.consultNfeEvent(input.ref)).toBeNull();
    const err = await provider.registerNfeEvent(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvoicingRefused);
    expect(err).toMatchObject({ code: 'evento_sem_rota' });
    expect((err as Error).message).toContain(`NF-e ${saleKey}: item 1: 1 UN, IBS R$ 0,13, CBS R$ 1,17`);
    expect(fake.requests.length).toBe(before);
  });

  it('refuses a type 03 without its one referenced NF-e, and either type as an exit', async () => {
    const { notas_referenciadas: _r, ...unreferenced } = focusNfeBody(refused('03'));
    expect(await verdictOf(unreferenced)).toMatchObject({ state: 'rejeitada', code: '254' });
    for (const type of ['03', '06'] as const)
      expect(await verdictOf({ ...focusNfeBody(refused(type)), tipo_documento: 1 })).toMatchObject({
        state: 'rejeitada',
        code: '1161',
      });
  });
});
