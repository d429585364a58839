import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fiscalDocuments } from '../../db/schema/index.ts';
import { createFocusProvider } from '../../providers/invoicing/focus.provider.ts';
import { isValidAccessKey } from '../../providers/invoicing/index.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { makeEvent } from '../../test/factories/events.ts';
import {
  documentsOf,
  paidCardOrder,
  saveFiscalSettings,
  saveProductFiscal,
  saveRegime,
} from '../../test/factories/fiscal.ts';
import { type Buyer, makeBuyer } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { cpfFrom, participant, registrationCard } from '../../test/factories/registrations.ts';
import { type FakeFocus, startFakeFocus } from '../../test/mocks/fake-focus.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Focus NFe through the real client against the strict fake: the documented requests (fields checked),
 * the asynchronous answers, a SEFAZ rejection with its code and message, the provider down or silent,
 * a reference already taken, cancellation, and the NFS-e of a registration.
 */
let fake: FakeFocus;
let t: TestApp;
let admin: TestStaff;
let buyer: Buyer;

beforeAll(async () => {
  fake = await startFakeFocus();
  t = await createTestApp({
    providers: { invoicing: createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 }) },
  });
  admin = await createStaffAndLogin(t.app, 'admin');
  buyer = await makeBuyer(t.app);
  await saveFiscalSettings(t.app, admin.headers);
}, 60_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.mode = 'ok';
  fake.rejectNext = null;
});

const db = () => t.database.db;
const nfeOf = async (orderId: number) => (await documentsOf(db(), orderId)).find((d) => d.kind === 'nfe');
const settled = (orderId: number, status: string, timeout = 45_000) =>
  vi.waitFor(
    async () => {
      const doc = await nfeOf(orderId);
      expect(doc?.status).toBe(status);
      return doc!;
    },
    { timeout, interval: 200 },
  );

async function productReady(price = 7990) {
  const product = await makeProduct(db(), { priceCents: price });
  await saveProductFiscal(t.app, admin.headers, product.id);
  return product;
}

// A nota goes through the job queue and the provider's polls: on a loaded machine that has taken over
// 20 s, so the waits and the tests are given room (only a failing test uses it).
describe('NF-e through Focus NFe (strict fake)', { timeout: 90_000 }, () => {
  it('sends the documented fields, waits for the authorisation and keeps the DANFE and XML', async () => {
    const orderId = await paidCardOrder(t.app, buyer, await productReady(), 2);
    const doc = await settled(orderId, 'autorizada');
    expect(fake.invalid).toEqual([]);
    const sent = fake.docs.get(doc.ref)!;
    expect(sent.body).toMatchObject({
      natureza_operacao: 'Venda de mercadoria',
      tipo_documento: 1,
      finalidade_emissao: 1,
      local_destino: 1,
      consumidor_final: 1,
      presenca_comprador: 2,
      cnpj_emitente: '12ABC34501DE35',
      cpf_destinatario: '40364478829',
      uf_destinatario: 'CE',
      valor_produtos: '159.80',
    });
    expect((sent.body.items as unknown[])[0]).toMatchObject({
      numero_item: 1,
      cfop: '5102',
      codigo_ncm: '61091000',
      quantidade_comercial: 2,
      valor_unitario_comercial: '79.90',
      icms_situacao_tributaria: '102',
    });
    expect(isValidAccessKey(doc.accessKey!)).toBe(true);
    expect(doc.pdf!.toString()).toContain('%PDF');
    expect(doc.xml!.toString()).toContain(doc.accessKey!);
    expect(fake.issued.filter((i) => i.ref === doc.ref)).toHaveLength(1);
    // The reference was asked about before it was sent.
    const calls = fake.requests.filter((r) => r.path.includes(doc.ref)).map((r) => r.method);
    expect(calls[0]).toBe('GET');
  });

  it('stops on a SEFAZ rejection with its code and message; a retry after the fix resends the same reference', async () => {
    fake.rejectNext = { code: '778', message: 'Rejeição: Informado NCM inexistente' };
    const orderId = await paidCardOrder(t.app, buyer, await productReady());
    const doc = await settled(orderId, 'erro');
    expect(doc.rejectionCode).toBe('778');
    expect(doc.reason).toBe(
      'Rejeitada: 778 – Rejeição: Informado NCM inexistente. Corrija os dados e tente de novo.',
    );
    const order = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/`,
      headers: admin.headers,
    });
    expect(order.json().status).toBe('pago');

    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/painel/notas/${doc.id}/tentar-novamente/`,
      headers: admin.headers,
    });
    expect(retry.statusCode).toBe(202);
    const done = await settled(orderId, 'autorizada');
    expect(done.ref).toBe(doc.ref);
    expect(fake.issued.filter((i) => i.ref === doc.ref)).toHaveLength(2);
  });

  it('keeps the nota pending while the provider is down (503) or silent, and issues it once it is back', async () => {
    fake.mode = 'down';
    const orderId = await paidCardOrder(t.app, buyer, await productReady());
    await vi.waitFor(
      async () => {
        const doc = await nfeOf(orderId);
        expect(doc?.attempts).toBeGreaterThanOrEqual(1);
        expect(doc?.status).toBe('pendente');
        expect(doc?.reason).toContain('Emissor de notas indisponível');
      },
      { timeout: 45_000, interval: 200 },
    );
    fake.mode = 'hang';
    const doc = (await nfeOf(orderId))!;
    await expect(t.app.fiscal.process(doc.id)).rejects.toThrow(/não respondeu a tempo/);
    expect((await nfeOf(orderId))!.status).toBe('pendente');
    const staffView = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/notas/`,
      headers: admin.headers,
    });
    expect(staffView.json()[0]).toMatchObject({
      status: 'pendente',
      motivo: expect.stringContaining('nova tentativa automática'),
    });

    fake.mode = 'ok';
    expect(await t.app.fiscal.process(doc.id)).toBe('autorizada');
    expect(fake.issued.filter((i) => i.ref === doc.ref)).toHaveLength(1);
  });

  it('answers a reference the provider already has (the first answer lost) with that nota, never a second one', async () => {
    const provider = createFocusProvider({ baseUrl: fake.url, token: fake.token, timeoutMs: 1500 });
    const address = {
      street: 'Av. Beira Mar',
      number: '3000',
      district: 'Meireles',
      city: 'Fortaleza',
      cityCode: '2304400',
      uf: 'CE',
      cep: '60165121',
    };
    const input = {
      ref: `teste-duplicada-${randomUUID().slice(0, 8)}`,
      purpose: 1 as const,
      operation: 'Venda de mercadoria',
      issuedAt: new Date(),
      number: 1,
      series: 1,
      emitter: {
        cnpj: '12ABC34501DE35',
        ie: '061234567',
        im: '1',
        name: 'Passada',
        regime: 'simples_nacional' as const,
        address,
      },
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
          unitCents: 5000,
          totalCents: 5000,
          shippingCents: 0,
          discountCents: 0,
          ibsCbs: null,
        },
      ],
      shippingCents: 1000,
      discountCents: 0,
      totalCents: 6000,
      ibsCbsTotals: null,
    };
    expect(await provider.issueNfe(input)).toEqual({ state: 'processando' });
    // Sent again (its 202 lost): Focus answers 422 already_processed and the client reads the reference.
    expect(await provider.issueNfe(input)).toEqual({ state: 'processando' });
    const read = await provider.consultNfe(input.ref);
    expect(read).toMatchObject({ state: 'autorizada', accessKey: fake.docs.get(input.ref)!.key });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v2/nfe')).not.toHaveLength(0);
    expect(fake.issued.filter((i) => i.ref === input.ref)).toHaveLength(1);

    // The same through the service: a document whose row lost its answer is found at the provider.
    const orderId = await paidCardOrder(t.app, buyer, await productReady());
    const doc = await settled(orderId, 'autorizada');
    await db()
      .update(fiscalDocuments)
      .set({ status: 'pendente', accessKey: null })
      .where(eq(fiscalDocuments.id, doc.id));
    expect(await t.app.fiscal.process(doc.id)).toBe('autorizada');
    expect((await nfeOf(orderId))!.accessKey).toBe(doc.accessKey);
    expect(fake.issued.filter((i) => i.ref === doc.ref)).toHaveLength(1);
  });

  it('cancels the NF-e of an order cancelled before shipping (DELETE with a justification)', async () => {
    const orderId = await paidCardOrder(t.app, buyer, await productReady());
    const doc = await settled(orderId, 'autorizada');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/status/`,
      headers: admin.headers,
      payload: { status: 'cancelado', motivo: 'Pedido duplicado' },
    });
    expect(res.statusCode).toBe(200);
    await settled(orderId, 'cancelada');
    expect(fake.docs.get(doc.ref)!.status).toBe('cancelado');
  });

  it('a parcel lost in transit under the regime normal: the event 112130 stops with the values staff register with SEFAZ, nothing sent', async () => {
    await saveRegime(t.app, admin.headers, 'regime_normal');
    try {
      const orderId = await paidCardOrder(t.app, buyer, await productReady(12_990), 2);
      const nfe = await settled(orderId, 'autorizada');
      for (const payload of [
        { status: 'em separação' },
        { status: 'enviado', codigo_rastreio: 'AA123456785BR' },
      ])
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/painel/orders/${orderId}/status/`,
              headers: admin.headers,
              payload,
            })
          ).statusCode,
        ).toBe(200);
      const sent = fake.requests.length;
      const refund = await t.app.inject({
        method: 'POST',
        url: `/api/painel/orders/${orderId}/reembolsos/`,
        headers: admin.headers,
        payload: {
          valor: 50,
          motivo: 'Extraviado',
          reembolsos_vistos: 0,
          retorno_transportadora: 'extravio',
        },
      });
      expect(refund.statusCode, refund.body).toBe(200);
      const event = await vi.waitFor(
        async () => {
          const doc = (await documentsOf(db(), orderId)).find((d) => d.kind === 'nfe_evento');
          expect(doc?.status).toBe('erro');
          return doc!;
        },
        { timeout: 45_000, interval: 200 },
      );
      // The values are the NF-e's as Focus authorised it (its XML): the item's IBS and CBS as they were sent.
      const [item] = fake.docs.get(nfe.ref)!.body.items as Array<{ ibs_valor: string; cbs_valor: string }>;
      const comma = (v: string) => v.replace('.', ',');
      expect(Number(item!.cbs_valor)).toBeGreaterThan(0);
      expect(event.reason).toBe(
        `A Focus NFe não oferece o evento 112130 (perda no transporte contratado pela loja); registre-o no portal da SEFAZ para a NF-e ${nfe.accessKey}: item 1: 2 UN, IBS R$ ${comma(item!.ibs_valor)}, CBS R$ ${comma(item!.cbs_valor)}, crédito da compra IBS R$ 0,00 e CBS R$ 0,00.`,
      );
      expect(fake.requests.slice(sent).filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await saveRegime(t.app, admin.headers, 'simples_nacional');
    }
  });
});

describe('NFS-e of a registration through Focus NFe', { timeout: 90_000 }, () => {
  it('is issued for a paid registration and cancelled with it', async () => {
    const event = await makeEvent(db());
    const categoryId = event.days[0]!.categories[0]!.id;
    const runner = await makeBuyer(t.app);
    const res = await registrationCard(t.app, {
      number: '4111111111111111',
      draft: participant(event, [categoryId], { cpf: cpfFrom(771_000_001) }),
      total: 89.9,
      user: runner,
      key: randomUUID(),
    });
    expect(res.statusCode).toBe(200);
    const registrationId = res.json().inscricao_id ?? res.json().id;
    expect(registrationId).toEqual(expect.any(Number));
    const nota = await vi.waitFor(
      async () => {
        const n = await t.app.fiscal.notaOfRegistration(registrationId);
        expect(n?.status).toBe('autorizada');
        return n!;
      },
      { timeout: 45_000, interval: 200 },
    );
    const ref = `passada-inscricao-${registrationId}-nfse`;
    expect(fake.docs.get(ref)!.body).toMatchObject({
      prestador: { cnpj: '12ABC34501DE35', inscricao_municipal: '1234567', codigo_municipio: '2304400' },
      tomador: { cpf: cpfFrom(771_000_001) },
      servico: { item_lista_servico: '12.11', valor_servicos: '89.90' },
    });
    const mine = await t.app.inject({ method: 'GET', url: '/api/notas/', headers: runner.headers });
    expect(mine.json().inscricoes[String(registrationId)][0]).toMatchObject({
      tipo: 'nfse',
      pdf_url: nota.pdf_url,
    });

    await t.app.fiscal.cancelRegistration(registrationId);
    expect((await t.app.fiscal.notaOfRegistration(registrationId))!.status).toBe('cancelada');
    expect(fake.docs.get(ref)!.status).toBe('cancelado');
  });
});
