import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { documentsOf, fiscalForm, saveProductFiscal } from '../../test/factories/fiscal.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * An exchange that ships (`fiscal.exchange-shipped`, docs/decisions/0043 and 0059): the returned unit
 * gets a devolução NF-e (finNFe 4) referencing the order's NF-e, the replacement an NF-e of its own, both
 * with the IBS/CBS of a regime-normal shop in December 2026.
 */
const START = new Date('2026-12-02T15:00:00Z');
const DAY = 86_400_000;
const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: false });

describe('the notas of an exchange', () => {
  let t: TestApp;
  let now = START;
  let admin: TestStaff;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    admin = await createStaffAndLogin(t.app, 'admin');
    buyer = await makeBuyer(t.app);
    const current = await t.app.inject({ method: 'GET', url: '/api/painel/fiscal/', headers: admin.headers });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/painel/fiscal/',
      headers: admin.headers,
      payload: { ...fiscalForm({ regime: 'regime_normal' }), versao: current.json().versao },
    });
    expect(saved.statusCode).toBe(200);
  }, 60_000);
  afterAll(() => t.close());

  /** Moves the clock; the staff session and the buyer's token are made again on the new day. */
  async function later(days: number) {
    now = new Date(START.getTime() + days * DAY);
    admin = await createStaffAndLogin(t.app, 'admin');
    const token = randomBytes(32).toString('base64url');
    await t.app.db
      .insert(authTokens)
      .values({ userId: buyer.id, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + DAY) });
    buyer = { ...buyer, headers: { authorization: `Token ${token}` } };
  }
  const staffPost = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: admin.headers, payload });
  const versionOf = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: '/api/painel/devolucoes/', headers: admin.headers }))
      .json()
      .find((r: { id: number }) => r.id === id).versao as number;

  it('the returned unit gets a devolução referencing the order’s NF-e, the replacement its own NF-e', async () => {
    const product = await makeProduct(t.app.db, {
      name: `Camiseta Troca ${randomBytes(3).toString('hex')}`,
      priceCents: 10_000,
      stock: [
        { color: 'Azul', size: 'M', quantity: 5 },
        { color: 'Azul', size: 'G', quantity: 5 },
      ],
    });
    await saveProductFiscal(t.app, admin.headers, product.id);
    const draft = { ...orderDraft(buyer, [{ product, quantity: 1 }]), cpf: '40364478829' };
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
    await untilJobsDone(t.app.db, 'fiscal.issue-order');
    const original = (await documentsOf(t.app.db, orderId)).find((d) => d.kind === 'nfe')!;
    expect(original.status, original.reason ?? '').toBe('autorizada');
    for (const step of [{ status: 'em separação' }, { status: 'enviado', codigo_rastreio: 'AA123456785BR' }])
      expect((await staffPost(`/orders/${orderId}/status/`, step)).statusCode).toBe(200);
    await later(2);
    expect((await staffPost(`/orders/${orderId}/status/`, { status: 'entregue' })).statusCode).toBe(200);
    const order = (await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers }))
      .json()
      .find((o: { id: number }) => o.id === orderId);
    const itemId = order.items[0].item_id as number;
    await later(4);

    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/trocas/`,
      headers: buyer.headers,
      payload: {
        itens: [
          {
            item_id: itemId,
            quantidade: 1,
            cor_id: product.stock[1]!.colorId,
            tamanho_id: product.stock[1]!.sizeId,
          },
        ],
        motivo: 'arrependimento',
      },
    });
    expect(asked.statusCode).toBe(201);
    const id = asked.json().id as number;
    const posted = await staffPost(`/devolucoes/${id}/postada/`, { versao: await versionOf(id) });
    const received = await staffPost(`/devolucoes/${id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: true }],
      versao: posted.json().versao,
    });
    expect(received.statusCode).toBe(200);
    const shipped = await staffPost(`/devolucoes/${id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456785BR',
      versao: received.json().versao,
    });
    expect(shipped.statusCode).toBe(200);
    await untilJobsDone(t.app.db, 'fiscal.exchange-shipped');

    const docs = await documentsOf(t.app.db, orderId);
    const back = docs.find((d) => d.ref === `passada-devolucao-${id}-nfe`)!;
    const replacement = docs.find((d) => d.ref === `passada-troca-${id}-nfe`)!;
    expect(back.status, back.reason ?? '').toBe('autorizada');
    expect(replacement.status, replacement.reason ?? '').toBe('autorizada');

    const devolucao = xml.parse(back.xml!.toString()).nfeProc.NFe.infNFe;
    expect(devolucao.ide.finNFe).toBe('4');
    expect(devolucao.ide.tpNF).toBe('0');
    expect(devolucao.ide.NFref.refNFe).toBe(original.accessKey);
    expect(devolucao.det.prod.CFOP).toBe('1202');
    expect(devolucao.det.imposto.IBSCBS.gIBSCBS).toMatchObject({
      vBC: '100.00',
      gCBS: { pCBS: '0.9000', vCBS: '0.90' },
    });

    const troca = xml.parse(replacement.xml!.toString()).nfeProc.NFe.infNFe;
    expect(troca.ide.finNFe).toBe('1');
    expect(troca.det.prod.xProd).toContain(' G');
    expect(troca.det.imposto.IBSCBS.gIBSCBS.gIBSUF).toEqual({ pIBSUF: '0.1000', vIBSUF: '0.10' });
    expect(troca.total.IBSCBSTot.gCBS.vCBS).toBe('0.90');
  });
});
