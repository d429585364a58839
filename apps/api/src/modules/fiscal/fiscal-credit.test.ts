import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccessKey } from '../../providers/invoicing/access-key.ts';
import { createFocusProvider, focusNfeBody } from '../../providers/invoicing/focus.provider.ts';
import type { NfeInput } from '../../providers/invoicing/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { documentsOf, paidCardOrder, saveProductFiscal, saveRegime } from '../../test/factories/fiscal.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { useClockedTestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * The nota de crédito (finNFe 5, tpNFCredito 04 "Redução de valores", NT 2025.002-RTC v1.31;
 * docs/decisions/0059, later): staff refund part of an order with nothing coming back, and the IBS/CBS
 * the order's NF-e declared are reduced by a nota referencing it; the demo issuer's XML read back with
 * fast-xml-parser, and the strict Focus fake accepting the documented shape and refusing a wrong one.
 */

/** 2 December 2026, noon in Fortaleza. */
const DEC_2026 = new Date('2026-12-02T15:00:00Z');
const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });
const asList = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);

describe('a price reduced after the sale', () => {
  const t = useClockedTestApp(DEC_2026);
  let admin: TestStaff;
  let buyer: Buyer;

  beforeAll(async () => {
    admin = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
  }, 60_000);

  async function soldOrder(regime: string, installments = 1) {
    await saveRegime(t.app, admin.headers, regime);
    const product = await makeProduct(t.database.db, { priceCents: 12_990 });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product, 2, undefined, installments);
    await untilJobsDone(t.database.db, 'fiscal.issue-order');
    const nfe = (await documentsOf(t.database.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(nfe.status, nfe.reason ?? '').toBe('autorizada');
    return { orderId, nfe };
  }
  const refund = (orderId: number, valor: number, seen: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/reembolsos/`,
      headers: admin.headers,
      payload: { valor, motivo: 'Abatimento combinado: costura torta', reembolsos_vistos: seen },
    });

  it('regime normal: a nota de crédito (finNFe 5, tpNFCredito 04) reduces the IBS/CBS of the NF-e it references', async () => {
    const { orderId, nfe } = await soldOrder('regime_normal');
    expect((await refund(orderId, 30, 0)).statusCode).toBe(200);
    await untilJobsDone(t.database.db, 'fiscal.order-reduced');

    const credit = (await documentsOf(t.database.db, orderId)).find((d) => d.kind === 'nfe_credito')!;
    expect(credit.status, credit.reason ?? '').toBe('autorizada');
    expect(credit.amountCents).toBe(3000);
    const n = xml.parse(credit.xml!.toString()).nfeProc.NFe.infNFe;
    expect(n.ide).toMatchObject({ finNFe: '5', tpNFCredito: '04', tpNF: '0' });
    expect(n.ide.NFref.refNFe).toBe(nfe.accessKey);
    const items = asList(n.det) as Array<{ imposto: { IBSCBS: { gIBSCBS: unknown } } }>;
    for (const it of items) {
      // IBS/CBS only (rule B25-80): no ICMS, PIS or COFINS on a nota de crédito.
      expect(Object.keys(it.imposto)).toEqual(['IBSCBS']);
      expect(it.imposto.IBSCBS.gIBSCBS).toMatchObject({
        gIBSUF: { pIBSUF: '0.1000' },
        gIBSMun: { pIBSMun: '0.0000' },
        gCBS: { pCBS: '0.9000' },
      });
    }
    // R$ 30,00 at the 2026 rates: CBS 0,27, IBS of the state 0,03.
    expect(n.total.IBSCBSTot).toMatchObject({
      vBCIBSCBS: '30.00',
      gIBS: { vIBS: '0.03' },
      gCBS: { vCBS: '0.27' },
    });
    expect(n.total.ICMSTot.vNF).toBe('30.00');
    // The shop's record, not the buyer's: no e-mail for it.
    const mails = (await t.database.db.execute(
      sql`select 1 from pgboss.job where name = 'mail.fiscal-document' and data->>'documentId' = ${String(credit.id)}`,
    )) as { rows: unknown[] };
    expect(mails.rows).toHaveLength(0);
  });

  it('never credits more than the NF-e declares: the rest of the charge, card interest included, credits what is left', async () => {
    // In 10 instalments the charge carries the card's interest: more was paid than the NF-e declares.
    const { orderId, nfe } = await soldOrder('regime_normal', 10);
    const first = (nfe.amountCents - 1000) / 100;
    expect((await refund(orderId, first, 0)).statusCode).toBe(200);
    const left = (
      await t.app.inject({
        method: 'GET',
        url: `/api/painel/orders/${orderId}/reembolsos/`,
        headers: admin.headers,
      })
    ).json().restante as number;
    expect(left).toBeGreaterThan(10);
    // The rest of the charge, interest included: only the R$ 10,00 the NF-e still declares is credited.
    expect((await refund(orderId, left, 1)).statusCode).toBe(200);
    await untilJobsDone(t.database.db, 'fiscal.order-reduced');
    const credits = (await documentsOf(t.database.db, orderId)).filter((d) => d.kind === 'nfe_credito');
    expect(credits.map((c) => c.amountCents).sort((a, b) => b - a)).toEqual([nfe.amountCents - 1000, 1000]);
  });

  it('Simples Nacional in 2026: the NF-e carried no IBS/CBS, so there is nothing to credit', async () => {
    const { orderId } = await soldOrder('simples_nacional');
    expect((await refund(orderId, 30, 0)).statusCode).toBe(200);
    await untilJobsDone(t.database.db, 'fiscal.order-reduced');
    expect((await documentsOf(t.database.db, orderId)).map((d) => d.kind)).toEqual(['nfe']);
  });
});

describe('the strict Focus fake and the nota de crédito', () => {
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
  const credit = (): NfeInput => ({
    ref: `credito-${randomUUID().slice(0, 8)}`,
    purpose: 5,
    creditType: '04',
    operation: 'Nota de crédito - redução de valores',
    issuedAt: DEC_2026,
    number: 2,
    series: 1,
    emitter: { cnpj, ie: '061234567', im: '1', name: 'Passada', regime: 'regime_normal', address },
    recipient: { name: 'Maria Silva', cpf: '40364478829', email: null, address },
    items: [
      {
        code: '1',
        description: 'Camiseta',
        ncm: '61091000',
        origin: 0,
        cfop: '1949',
        icmsSituation: '00',
        pisSituation: '01',
        cofinsSituation: '01',
        quantity: 1,
        unitCents: 3000,
        totalCents: 3000,
        shippingCents: 0,
        discountCents: 0,
        ibsCbs: {
          situation: '000',
          classification: '000001',
          baseCents: 3000,
          ibsUfRate: 1000,
          ibsUfCents: 3,
          ibsMunRate: 0,
          ibsMunCents: 0,
          ibsCents: 3,
          cbsRate: 9000,
          cbsCents: 27,
        },
      },
    ],
    shippingCents: 0,
    discountCents: 0,
    totalCents: 3000,
    ibsCbsTotals: { baseCents: 3000, ibsUfCents: 3, ibsMunCents: 0, ibsCents: 3, cbsCents: 27 },
    referencedKey: saleKey,
  });
  /** Posts a body as given and reads SEFAZ's verdict (the first GET answers "processando"). */
  async function verdictOf(body: Record<string, unknown>) {
    const ref = `credito-${randomUUID().slice(0, 8)}`;
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

  it('authorises the documented shape: entry, tpNFCredito 04, one referenced NF-e, IBS/CBS only', async () => {
    const body = focusNfeBody(credit());
    expect(body).toMatchObject({ finalidade_emissao: 5, tipo_documento: 0, tipo_nota_credito: '04' });
    expect(body.items).toEqual([
      expect.not.objectContaining({ icms_situacao_tributaria: expect.anything() }),
    ]);
    expect(await verdictOf(body)).toMatchObject({ state: 'autorizada' });
  });

  it('refuses it without the type, the reference, as an exit, or with ICMS/PIS/COFINS', async () => {
    const ok = focusNfeBody(credit());
    const items = ok.items as Array<Record<string, unknown>>;
    const { tipo_nota_credito: _t, ...untyped } = ok;
    const { notas_referenciadas: _r, ...unreferenced } = ok;
    for (const [body, code] of [
      [untyped, '1164'],
      [unreferenced, '254'],
      [{ ...ok, notas_referenciadas: [{ chave_nfe: saleKey }, { chave_nfe: saleKey }] }, '255'],
      [{ ...ok, tipo_documento: 1 }, '1161'],
      [
        {
          ...ok,
          items: items.map((it) => ({
            ...it,
            icms_origem: 0,
            icms_situacao_tributaria: '00',
            pis_situacao_tributaria: '01',
            cofins_situacao_tributaria: '01',
          })),
        },
        '1001',
      ],
      [
        { ...focusNfeBody({ ...credit(), purpose: 1, creditType: undefined }), tipo_nota_credito: '04' },
        '1163',
      ],
    ] as const)
      expect(await verdictOf(body as Record<string, unknown>)).toMatchObject({ state: 'rejeitada', code });
  });
});
