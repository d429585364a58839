import { randomBytes } from 'node:crypto';
import { isS10Code } from '@passada/core/s10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
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

const START = new Date('2026-11-23T15:00:00Z');
const DAY = 86_400_000;

/** Returns after delivery (docs/decisions/0036): the buyer's request, the code, the staff queue, refunds. */
describe('returns after delivery', () => {
  let t: TestApp;
  let now = START;
  let admin: TestStaff;
  let operator: TestStaff;
  let buyer: Buyer;
  let product: MadeProduct;

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    buyer = await makeBuyer(t.app);
    product = await makeProduct(t.app.db, {
      name: 'Jaqueta Corta-Vento',
      priceCents: 20_000,
      stock: [{ color: 'Verde', size: 'M', quantity: 10 }],
    });
  });
  afterAll(() => t.close());

  /** Days go by: sessions expire, so staff and the buyer sign in again at the new time. */
  async function later(days: number) {
    now = new Date(START.getTime() + days * DAY);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
    const token = randomBytes(32).toString('base64url');
    await t.app.db
      .insert(authTokens)
      .values({ userId: buyer.id, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + DAY) });
    buyer = { ...buyer, headers: { authorization: `Token ${token}` } };
  }

  const staffPost = (who: TestStaff, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: who.headers, payload });
  const ask = (orderId: number, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/devolucoes/`,
      headers: buyer.headers,
      payload,
    });
  const afterSale = async (orderId: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/orders/${orderId}/pos-venda/`, headers: buyer.headers })
    ).json();
  const stock = async () =>
    (
      await t.app.catalog.getProduct(product.id, {
        color: product.stock[0]!.colorId,
        size: product.stock[0]!.sizeId,
      })
    ).stock[0]!.quantity;

  /** Bought now, delivered `deliveredAfterDays` later (staff mark it), then the clock moves `thenDays`. */
  async function delivered(deliveredAfterDays = 2) {
    await later(0);
    const draft = orderDraft(buyer, [{ product, quantity: 2 }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
    for (const step of [{ status: 'em separação' }, { status: 'enviado', codigo_rastreio: 'AA123456785BR' }])
      expect((await staffPost(operator, `/orders/${orderId}/status/`, step)).statusCode).toBe(200);
    await later(deliveredAfterDays);
    expect((await staffPost(operator, `/orders/${orderId}/status/`, { status: 'entregue' })).statusCode).toBe(
      200,
    );
    const orders = (
      await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })
    ).json();
    const order = orders.find((o: { id: number }) => o.id === orderId);
    return { orderId, total, itemId: order.items[0].item_id as number };
  }

  it('within 7 days: a posting code at once, staff receive it, refund a part, then the rest; never more', async () => {
    const { orderId, total, itemId } = await delivered();
    await later(8); // delivered on day 2: the 7 days end on day 9 (2 December)
    const offer = await afterSale(orderId);
    expect(offer).toMatchObject({
      pode_devolver: true,
      prazo_arrependimento: '2026-12-02',
      prazo_defeito: '2027-02-23',
    });

    const asked = await ask(orderId, {
      itens: [{ item_id: itemId, quantidade: 1 }],
      motivo: 'arrependimento',
    });
    expect(asked.statusCode).toBe(201);
    const request = asked.json();
    expect(request).toMatchObject({ tipo: 'devolucao', status: 'codigo_enviado', valor_reembolsado: 0 });
    expect(isS10Code(request.codigo_postagem)).toBe(true);
    expect(request.codigo_postagem).toMatch(/^LR\d{9}BR$/);
    await waitForMailContaining(t.dataDir, request.codigo_postagem);

    // Staff may replace the code with one issued on the carrier's portal, never with anything: a code
    // that is neither an authorisation's number nor an object code with its check digit is refused, and
    // the customer hears of nothing until a valid one is saved.
    for (const codigo of ['qualquer coisa', 'LR123456784BR', '12-34']) {
      const refused = await staffPost(operator, `/devolucoes/${request.id}/codigo/`, { codigo, versao: 1 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toContain('Código de postagem inválido');
    }
    const replaced = await staffPost(operator, `/devolucoes/${request.id}/codigo/`, {
      codigo: ' 482913075 ',
      versao: 1,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      status: 'codigo_enviado',
      codigo_postagem: '482913075',
      versao: 2,
    });
    await waitForMailContaining(t.dataDir, '482913075');

    const queue = (
      await t.app.inject({ method: 'GET', url: '/api/painel/devolucoes/', headers: operator.headers })
    ).json();
    const queued = queue.find((r: { id: number }) => r.id === request.id);
    expect(queued).toMatchObject({ sugestao: 200, restante: total / 100, versao: 2 });

    const before = await stock();
    const received = await staffPost(operator, `/devolucoes/${request.id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: true }],
      versao: queued.versao,
    });
    expect(received.statusCode).toBe(200);
    expect(received.json()).toMatchObject({ status: 'recebida', itens: [{ voltou_ao_estoque: true }] });
    expect(await stock()).toBe(before + 1);

    // A stale screen is refused; an operator cannot move money.
    const stale = await staffPost(admin, `/devolucoes/${request.id}/reembolso/`, {
      valor: 50,
      versao: queued.versao,
    });
    expect(stale.statusCode).toBe(409);
    const v = received.json().versao;
    expect(
      (await staffPost(operator, `/devolucoes/${request.id}/reembolso/`, { valor: 50, versao: v }))
        .statusCode,
    ).toBe(403);
    const part = await staffPost(admin, `/devolucoes/${request.id}/reembolso/`, { valor: 50, versao: v });
    expect(part.statusCode).toBe(200);
    expect(part.json()).toMatchObject({ status: 'reembolsada', valor_reembolsado: 50, reembolsado: 50 });
    // The same screen submitted twice refunds once (the refund id carries the version): 409 stale.
    expect(
      (await staffPost(admin, `/devolucoes/${request.id}/reembolso/`, { valor: 50, versao: v })).statusCode,
    ).toBe(409);

    const tooMuch = await staffPost(admin, `/devolucoes/${request.id}/reembolso/`, {
      valor: total / 100,
      versao: part.json().versao,
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('devolucao_acima_do_pago');
    const rest = await staffPost(admin, `/devolucoes/${request.id}/reembolso/`, {
      valor: total / 100 - 50,
      versao: part.json().versao,
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ reembolsado: total / 100, restante: 0 });
    expect((await afterSale(orderId)).reembolsado).toBe(total / 100);
  });

  it('after 7 days regret is refused with the deadline; a defect within 90 days is taken; the stock check per line', async () => {
    const { orderId, itemId } = await delivered();
    await later(10);
    const late = await ask(orderId, {
      itens: [{ item_id: itemId, quantidade: 1 }],
      motivo: 'arrependimento',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe(
      'O prazo de 7 dias para desistir da compra terminou em 02/12/2026. Se o produto tem defeito, escolha "defeito".',
    );
    const noDescription = await ask(orderId, {
      itens: [{ item_id: itemId, quantidade: 1 }],
      motivo: 'defeito',
    });
    expect(noDescription.statusCode).toBe(400);
    const defect = await ask(orderId, {
      itens: [{ item_id: itemId, quantidade: 2 }],
      motivo: 'defeito',
      descricao: 'O zíper abriu.',
    });
    expect(defect.statusCode).toBe(201);
    const v = (
      await t.app.inject({ method: 'GET', url: '/api/painel/devolucoes/', headers: operator.headers })
    )
      .json()
      .find((r: { id: number }) => r.id === defect.json().id).versao;
    const before = await stock();
    const received = await staffPost(operator, `/devolucoes/${defect.json().id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: false }],
      versao: v,
    });
    expect(received.json()).toMatchObject({ status: 'recebida', itens: [{ voltou_ao_estoque: false }] });
    expect(await stock()).toBe(before);
    const refused = await staffPost(operator, `/devolucoes/${defect.json().id}/recusar/`, {
      motivo: 'Sinais de uso.',
      versao: received.json().versao,
    });
    expect(refused.json()).toMatchObject({ status: 'recusada', motivo_recusa: 'Sinais de uso.' });

    await later(100);
    const tooLate = await ask(orderId, {
      itens: [{ item_id: itemId, quantidade: 1 }],
      motivo: 'defeito',
      descricao: 'x',
    });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().detail).toMatch(/90 dias/);
  });
});
