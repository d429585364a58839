import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isValidAccessKey } from '../../providers/invoicing/index.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import {
  documentsOf,
  fiscalForm,
  paidCardOrder,
  paidPixOrder,
  saveFiscalSettings,
  saveProductFiscal,
} from '../../test/factories/fiscal.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** Notas fiscais on the offline issuer (the demo's): settings, issue after payment, links, retry, cancel. */
let t: TestApp;
let admin: TestStaff;
let buyer: Buyer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createStaffAndLogin(t.app, 'admin');
  buyer = await makeBuyer(t.app);
}, 60_000);
afterAll(() => t.close());

const db = () => t.database.db;
const nfeOf = async (orderId: number) => (await documentsOf(db(), orderId)).find((d) => d.kind === 'nfe');
const settled = (orderId: number, status: string) =>
  vi.waitFor(
    async () => {
      const doc = await nfeOf(orderId);
      expect(doc?.status).toBe(status);
      return doc!;
    },
    { timeout: 45_000, interval: 200 },
  );

describe('fiscal settings in the back office', () => {
  it('are read with reports, saved with the catalogue, validated in Portuguese and versioned', async () => {
    const financeiro = await createStaffAndLogin(t.app, 'financeiro');
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/painel/fiscal/',
      headers: financeiro.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ cnpj: '', versao: 1, regras: [] });
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: financeiro.headers,
      payload: { ...fiscalForm(), versao: 1 },
    });
    expect(refused.statusCode).toBe(403);

    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
      payload: {
        ...fiscalForm({
          cnpj: '12.345.678/0001-00',
          codigo_municipio: '230440',
          regras: [
            {
              destino: 'interna',
              cfop: '6102',
              situacao_icms: '102',
              situacao_pis: '49',
              situacao_cofins: '49',
            },
          ],
        }),
        versao: 1,
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      cnpj: 'CNPJ inválido.',
      codigo_municipio: expect.stringContaining('7 dígitos'),
      'regras.0.cfop': expect.stringContaining('5xxx'),
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers: admin.headers })).json().cnpj,
    ).toBe('');

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
      payload: { ...fiscalForm(), versao: 1 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      cnpj: '12ABC34501DE35',
      inscricao_estadual: '061234567',
      cep: '60165121',
      versao: 2,
    });
    expect(saved.json().regras).toHaveLength(2);

    const stale = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
      payload: { ...fiscalForm({ razao_social: 'Outra Ltda.' }), versao: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('versao_desatualizada');
  });

  it('refuses a settings form without the rule for another state', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
      payload: { ...fiscalForm({ regras: fiscalForm().regras.slice(0, 1) }), versao: 2 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.regras).toContain('Para outro estado');
  });

  it('refuses an NCM that is not 8 digits', async () => {
    const product = await makeProduct(db());
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/painel/products/${product.id}/fiscal/`,
      headers: admin.headers,
      payload: { ncm: '6109', origem: 0 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.ncm).toContain('8 dígitos');
  });
});

describe('the NF-e of a paid order (offline issuer)', () => {
  it('is issued by the job: a real-format key, DANFE and XML links on the buyer side and in an e-mail', async () => {
    await saveFiscalSettings(t.app, admin.headers).catch(() => undefined);
    const product = await makeProduct(db(), { priceCents: 8990 });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product, 2);
    const doc = await settled(orderId, 'autorizada');

    expect(isValidAccessKey(doc.accessKey!)).toBe(true);
    expect(doc.accessKey!.slice(0, 2)).toBe('23');
    expect(doc.accessKey!.slice(6, 20)).toBe('12ABC34501DE35');
    expect(doc.accessKey!.slice(20, 22)).toBe('55');
    expect(await t.app.fiscal.authorisedNfeKey(orderId)).toBe(doc.accessKey);

    const mine = await t.app.inject({ method: 'GET', url: '/api/notas/', headers: buyer.headers });
    expect(mine.statusCode).toBe(200);
    const [nota] = mine.json().pedidos[String(orderId)];
    expect(nota).toMatchObject({ tipo: 'nfe', status: 'autorizada', chave: doc.accessKey });
    const pdf = await t.app.inject({ method: 'GET', url: nota.pdf_url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xml = await t.app.inject({ method: 'GET', url: nota.xml_url });
    expect(xml.body).toContain(`<chNFe>${doc.accessKey}</chNFe>`);
    expect(xml.body).toContain('SEM VALOR FISCAL');
    expect(xml.body).toContain('<CFOP>5102</CFOP>');
    expect(xml.body).toContain('<NCM>61091000</NCM>');
    expect(xml.body).toContain('<CPF>40364478829</CPF>');
    // A link with a wrong token finds nothing.
    const forged = await t.app.inject({
      method: 'GET',
      url: nota.pdf_url.replace(/\/[^/]+\/danfe/, '/xxxxxxxxxxxxxxxxxxxx/danfe'),
    });
    expect(forged.statusCode).toBe(404);

    const mail = await waitForMailContaining(t.dataDir, `/api/notas/${doc.id}/`);
    expect(mail).toContain('DANFE (PDF)');
    expect(mail).toContain('SEM VALOR FISCAL');

    const staffView = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/notas/`,
      headers: admin.headers,
    });
    expect(staffView.json()).toEqual([
      expect.objectContaining({ status: 'autorizada', chave: doc.accessKey, motivo: null }),
    ]);
  });

  it('of a Pix order is issued to the "CPF na nota" the checkout asked, kept on the order', async () => {
    const product = await makeProduct(db());
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidPixOrder(t.app, buyer, product, '529.982.247-25');
    const doc = await settled(orderId, 'autorizada');
    const [nota] = (await t.app.inject({ method: 'GET', url: '/api/notas/', headers: buyer.headers })).json()
      .pedidos[String(orderId)];
    const xml = await t.app.inject({ method: 'GET', url: nota.xml_url });
    expect(xml.body).toContain(`<chNFe>${doc.accessKey}</chNFe>`);
    expect(xml.body).toContain('<CPF>52998224725</CPF>');
    const staffView = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/`,
      headers: admin.headers,
    });
    expect(staffView.json().cliente.cpf).toBe('***.982.247-**');
  });

  it('of a Pix order without a CPF stops with the clear message; a wrong CPF is refused at checkout', async () => {
    const product = await makeProduct(db());
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidPixOrder(t.app, buyer, product, null);
    const doc = await settled(orderId, 'erro');
    expect(doc.reason).toContain('o pedido não tem o CPF do comprador');

    const draft = { ...orderDraft(buyer, [{ product }]), cpf: '529.982.247-26' };
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const refused = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors['pedido.cpf']).toBe('CPF inválido.');
  });

  it('of a card order goes to the "CPF na nota" when one was given, not the card holder\'s', async () => {
    const product = await makeProduct(db());
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product, 1, '52998224725');
    await settled(orderId, 'autorizada');
    const [nota] = (await t.app.inject({ method: 'GET', url: '/api/notas/', headers: buyer.headers })).json()
      .pedidos[String(orderId)];
    const xml = await t.app.inject({ method: 'GET', url: nota.xml_url });
    expect(xml.body).toContain('<CPF>52998224725</CPF>');
    expect(xml.body).not.toContain('<CPF>40364478829</CPF>');
  });

  it('is issued once: running the job again answers the same nota', async () => {
    const product = await makeProduct(db());
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product);
    const first = await settled(orderId, 'autorizada');
    await t.app.fiscal.issueOrder(orderId);
    await t.app.fiscal.issueOrder(orderId);
    const docs = await documentsOf(db(), orderId);
    expect(docs).toHaveLength(1);
    expect(docs[0]!.accessKey).toBe(first.accessKey);
  });

  it('stops with a clear message when a product has no NCM, never the sale; staff fix it and retry', async () => {
    const product = await makeProduct(db(), { name: 'Regata Sem Ncm' });
    const orderId = await paidCardOrder(t.app, buyer, product);
    const doc = await settled(orderId, 'erro');
    expect(doc.reason).toContain('o produto "Regata Sem Ncm" está sem NCM e origem');
    const order = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/`,
      headers: admin.headers,
    });
    expect(order.json().status).toBe('pago');
    const staffView = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${orderId}/notas/`,
      headers: admin.headers,
    });
    expect(staffView.json()[0]).toMatchObject({
      status: 'erro',
      motivo: expect.stringContaining('Regata Sem Ncm'),
      pdf_url: null,
    });

    await saveProductFiscal(t.app, admin.headers, product.id, '61091000');
    const estoque = await createStaffAndLogin(t.app, 'estoque');
    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/painel/notas/${doc.id}/tentar-novamente/`,
      headers: estoque.headers,
    });
    expect(retried.statusCode).toBe(202);
    await settled(orderId, 'autorizada');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/painel/notas/${doc.id}/tentar-novamente/`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(409);
  });

  it('is cancelled with an order cancelled before shipping', async () => {
    const product = await makeProduct(db());
    await saveProductFiscal(t.app, admin.headers, product.id);
    const orderId = await paidCardOrder(t.app, buyer, product);
    await settled(orderId, 'autorizada');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/status/`,
      headers: admin.headers,
      payload: { status: 'cancelado', motivo: 'Cliente desistiu' },
    });
    expect(cancel.statusCode).toBe(200);
    const doc = await settled(orderId, 'cancelada');
    expect(doc.cancelledAt).not.toBeNull();
  });
});
