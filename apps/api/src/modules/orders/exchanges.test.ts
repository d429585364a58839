import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, chargeRefunds, charges, products, stockMovements } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import type { createTabelaProvider } from '../../providers/shipping/tabela.provider.ts';
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

/**
 * Exchanges (docs/decisions/0040): the new unit is held at once, ships with a checked tracking code once
 * the returned one arrived, a higher price is paid first, a lower one is refunded, a refusal or a lapsed
 * window puts the held unit back.
 */
describe('exchanges after delivery', () => {
  let t: TestApp;
  let now = START;
  let operator: TestStaff;
  let buyer: Buyer;
  let product: MadeProduct;

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    buyer = await makeBuyer(t.app);
  });
  afterAll(() => t.close());

  async function later(days: number) {
    now = new Date(START.getTime() + days * DAY);
    operator = await createStaffAndLogin(t.app, 'operador');
    const token = randomBytes(32).toString('base64url');
    await t.app.db
      .insert(authTokens)
      .values({ userId: buyer.id, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + DAY) });
    buyer = { ...buyer, headers: { authorization: `Token ${token}` } };
  }

  const staffPost = (who: TestStaff, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/painel${url}`, headers: who.headers, payload });
  const exchange = (orderId: number, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${orderId}/trocas/`, headers: buyer.headers, payload });
  const afterSale = async (orderId: number) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/orders/${orderId}/pos-venda/`, headers: buyer.headers })
    ).json();
  const stockOf = async (p: MadeProduct, i: number) =>
    (await t.app.catalog.getProduct(p.id, { color: p.stock[i]!.colorId, size: p.stock[i]!.sizeId })).stock[0]!
      .quantity;
  const versionOf = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: '/api/painel/devolucoes/', headers: operator.headers }))
      .json()
      .find((r: { id: number }) => r.id === id).versao as number;

  /** A new product (M and G), one M bought now and delivered two days later. */
  async function delivered(opts: { gStock?: number } = {}) {
    product = await makeProduct(t.app.db, {
      name: `Camiseta Troca ${randomBytes(3).toString('hex')}`,
      priceCents: 10_000,
      stock: [
        { color: 'Azul', size: 'M', quantity: 5 },
        { color: 'Azul', size: 'G', quantity: opts.gStock ?? 5 },
      ],
    });
    await later(0);
    const draft = orderDraft(buyer, [{ product, quantity: 1 }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
    for (const step of [{ status: 'em separação' }, { status: 'enviado', codigo_rastreio: 'AA123456785BR' }])
      expect((await staffPost(operator, `/orders/${orderId}/status/`, step)).statusCode).toBe(200);
    await later(2);
    expect((await staffPost(operator, `/orders/${orderId}/status/`, { status: 'entregue' })).statusCode).toBe(
      200,
    );
    const orders = (
      await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers })
    ).json();
    const order = orders.find((o: { id: number }) => o.id === orderId);
    await later(4);
    return { orderId, total, txid, itemId: order.items[0].item_id as number };
  }

  const toG = (itemId: number) => ({
    itens: [
      {
        item_id: itemId,
        quantidade: 1,
        cor_id: product.stock[1]!.colorId,
        tamanho_id: product.stock[1]!.sizeId,
      },
    ],
    motivo: 'arrependimento',
  });

  /** Staff mark it posted and receive the returned unit back to stock. */
  async function postedAndReceived(id: number, itemId: number) {
    const posted = await staffPost(operator, `/devolucoes/${id}/postada/`, { versao: await versionOf(id) });
    expect(posted.statusCode).toBe(200);
    expect(posted.json().status).toBe('postada');
    const received = await staffPost(operator, `/devolucoes/${id}/recebida/`, {
      itens: [{ item_id: itemId, estoque: true }],
      versao: posted.json().versao,
    });
    expect(received.statusCode).toBe(200);
    return received.json();
  }

  it('same price: the new size is held at once, ships only once received, with a checked code; full history', async () => {
    const { orderId, itemId } = await delivered();
    expect((await afterSale(orderId)).pode_trocar).toBe(true);
    const sameCombo = await exchange(orderId, {
      itens: [
        {
          item_id: itemId,
          quantidade: 1,
          cor_id: product.stock[0]!.colorId,
          tamanho_id: product.stock[0]!.sizeId,
        },
      ],
      motivo: 'arrependimento',
    });
    expect(sameCombo.statusCode).toBe(400);
    expect(sameCombo.json().code).toBe('troca_igual');

    const asked = await exchange(orderId, toG(itemId));
    expect(asked.statusCode).toBe(201);
    const request = asked.json();
    expect(request).toMatchObject({
      tipo: 'troca',
      status: 'codigo_enviado',
      troca: {
        itens: [{ item_id: itemId, cor: 'Azul', tamanho: 'G', quantidade: 1 }],
        diferenca: 0,
        diferenca_paga: true,
        codigo_rastreio: null,
      },
    });
    expect(request.codigo_postagem).toMatch(/^LR\d{9}BR$/);
    expect(await stockOf(product, 1)).toBe(4);
    const [hold] = await t.app.db
      .select()
      .from(stockMovements)
      .where(and(eq(stockMovements.orderId, orderId), eq(stockMovements.reason, 'troca_reserva')));
    expect(hold).toMatchObject({ delta: -1, quantityAfter: 4, sizeId: product.stock[1]!.sizeId });
    await waitForMailContaining(t.dataDir, request.codigo_postagem);

    // Nothing ships before the returned unit arrives (EXCHANGE_SHIPS_ON defaults to `recebida`).
    const early = await staffPost(operator, `/devolucoes/${request.id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456785BR',
      versao: await versionOf(request.id),
    });
    expect(early.statusCode).toBe(409);
    const received = await postedAndReceived(request.id, itemId);
    expect(await stockOf(product, 0)).toBe(5);

    const badCode = await staffPost(operator, `/devolucoes/${request.id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456789BR',
      versao: received.versao,
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().code).toBe('codigo_invalido');
    const shipped = await staffPost(operator, `/devolucoes/${request.id}/troca-enviada/`, {
      codigo_rastreio: 'aa 123456785 br',
      versao: received.versao,
    });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json()).toMatchObject({
      status: 'trocada',
      valor_reembolsado: 0,
      troca: { codigo_rastreio: 'AA123456785BR' },
    });
    // Shipped: the held unit left for good (no release), and the history lists every step.
    expect(await stockOf(product, 1)).toBe(4);
    const seen = (await afterSale(orderId)).solicitacoes.find((r: { id: number }) => r.id === request.id);
    expect(seen.historico.map((h: { status: string }) => h.status)).toEqual([
      'solicitada',
      'codigo_enviado',
      'postada',
      'recebida',
      'trocada',
    ]);
    await waitForMailContaining(t.dataDir, 'AA123456785BR');
  });

  it('up in price: the difference is paid by Pix (purpose troca) before the exchange ships', async () => {
    const { orderId, itemId } = await delivered();
    await t.app.db.update(products).set({ priceCents: 12_500 }).where(eq(products.id, product.id));
    const request = (await exchange(orderId, toG(itemId))).json();
    expect(request.troca).toMatchObject({ diferenca: 25, diferenca_paga: false });
    const received = await postedAndReceived(request.id, itemId);
    const unpaid = await staffPost(operator, `/devolucoes/${request.id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456785BR',
      versao: received.versao,
    });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().code).toBe('diferenca_nao_paga');

    // The browser's total is checked against the server's difference.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 10, finalidade: 'troca', troca: { solicitacao: request.id } },
    });
    expect(wrong.statusCode).toBe(409);
    const pix = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 25, finalidade: 'troca', troca: { solicitacao: request.id } },
    });
    expect(pix.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, pix.json().txid)).json()).toMatchObject({ status: 'CONCLUIDA' });
    const seen = (await afterSale(orderId)).solicitacoes.find((r: { id: number }) => r.id === request.id);
    expect(seen.troca.diferenca_paga).toBe(true);
    // Paid once: another charge for the same difference is refused.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 25, finalidade: 'troca', troca: { solicitacao: request.id } },
    });
    expect(again.statusCode).toBe(409);

    const shipped = await staffPost(operator, `/devolucoes/${request.id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456785BR',
      versao: seen.versao,
    });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().status).toBe('trocada');
  });

  it('down in price: the difference goes back through a partial refund when the exchange ships', async () => {
    const { orderId, itemId, txid } = await delivered();
    await t.app.db.update(products).set({ priceCents: 8_000 }).where(eq(products.id, product.id));
    const request = (await exchange(orderId, toG(itemId))).json();
    expect(request.troca).toMatchObject({ diferenca: -20, diferenca_paga: true });
    const received = await postedAndReceived(request.id, itemId);
    const shipped = await staffPost(operator, `/devolucoes/${request.id}/troca-enviada/`, {
      codigo_rastreio: 'AA123456785BR',
      versao: received.versao,
    });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json()).toMatchObject({ status: 'trocada', valor_reembolsado: 20, reembolsado: 20 });
    const [charge] = await t.app.db.select().from(charges).where(eq(charges.txid, txid));
    const refunds = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds).toEqual([expect.objectContaining({ amountCents: 2000, refundId: `ret${request.id}t` })]);
    expect(t.app.providers.payments.simulator!.refunds().at(-1)).toMatchObject({ amountCents: 2000 });
  });

  it('the last unit goes to one exchange; a refusal, and a lapsed window, put the held unit back', async () => {
    const { orderId, itemId } = await delivered({ gStock: 1 });
    const first = await exchange(orderId, toG(itemId));
    expect(first.statusCode).toBe(201);
    expect(await stockOf(product, 1)).toBe(0);
    // The order's one unit is already asked for: a second request is refused.
    expect((await exchange(orderId, toG(itemId))).statusCode).toBe(409);

    const refused = await staffPost(operator, `/devolucoes/${first.json().id}/recusar/`, {
      motivo: 'Etiqueta removida',
      versao: await versionOf(first.json().id),
    });
    expect(refused.statusCode).toBe(200);
    expect(await stockOf(product, 1)).toBe(1);
    const seen = (await afterSale(orderId)).solicitacoes.find(
      (r: { id: number }) => r.id === first.json().id,
    );
    expect(seen.historico.at(-1)).toMatchObject({ status: 'recusada', nota: 'Etiqueta removida' });

    // Asked again, never posted: past the code's validity the job refuses it and the unit comes back.
    const second = await exchange(orderId, toG(itemId));
    expect(second.statusCode).toBe(201);
    expect(await stockOf(product, 1)).toBe(0);
    now = new Date(now.getTime() + 31 * DAY);
    expect(await t.app.orders.exchanges.lapseExchanges()).toBeGreaterThanOrEqual(1);
    expect(await stockOf(product, 1)).toBe(1);
    expect(await t.app.orders.exchanges.lapseExchanges()).toBe(0);
    expect(await stockOf(product, 1)).toBe(1);
    await later(40);
    const lapsed = (await afterSale(orderId)).solicitacoes.find(
      (r: { id: number }) => r.id === second.json().id,
    );
    expect(lapsed.status).toBe('recusada');
    expect(lapsed.motivo_recusa).toMatch(/O prazo para postar a troca terminou/);
  });

  it('a posting event at the offline carrier moves the request to postada, once, with an e-mail', async () => {
    const { orderId, itemId } = await delivered();
    const request = (await exchange(orderId, toG(itemId))).json();
    expect(request.status).toBe('codigo_enviado');
    const { tracking } = t.app.orders;
    expect(await tracking.followPostings()).toBe(0);
    const carrier = t.app.providers.shipping as ReturnType<typeof createTabelaProvider>;
    carrier.postings.post(request.codigo_postagem, now);
    expect(await tracking.followPostings()).toBeGreaterThanOrEqual(1);
    expect(await tracking.followPostings()).toBe(0);
    const seen = (await afterSale(orderId)).solicitacoes.find((r: { id: number }) => r.id === request.id);
    expect(seen.status).toBe('postada');
    expect(seen.historico.map((h: { status: string }) => h.status)).toEqual([
      'solicitada',
      'codigo_enviado',
      'postada',
    ]);
    await waitForMailContaining(t.dataDir, `Troca nº ${request.id} do pedido nº ${orderId}: Postada.`);
  });

  it('a paid difference goes back when the exchange is refused', async () => {
    const { orderId, itemId } = await delivered();
    await t.app.db.update(products).set({ priceCents: 11_000 }).where(eq(products.id, product.id));
    const request = (await exchange(orderId, toG(itemId))).json();
    const pix = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 10, finalidade: 'troca', troca: { solicitacao: request.id } },
    });
    expect(pix.statusCode).toBe(201);
    await simulatePixPaid(t.app, pix.json().txid);
    const refused = await staffPost(operator, `/devolucoes/${request.id}/recusar/`, {
      motivo: 'Produto usado',
      versao: await versionOf(request.id),
    });
    expect(refused.statusCode).toBe(200);
    const [charge] = await t.app.db.select().from(charges).where(eq(charges.txid, pix.json().txid));
    const refunds = await t.app.db.select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, charge!.id));
    expect(refunds).toEqual([expect.objectContaining({ amountCents: 1000, refundId: `ret${request.id}d` })]);
    expect(await stockOf(product, 1)).toBe(5);
  });
});
