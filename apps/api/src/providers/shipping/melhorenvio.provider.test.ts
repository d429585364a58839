import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderDeliveries } from '../../db/schema/orders.ts';
import { shippingLabels } from '../../db/schema/shipping.ts';
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
import { type FakeMelhorEnvio, startFakeMelhorEnvio } from '../../test/mocks/fake-melhor-envio.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createMelhorEnvioProvider } from './melhorenvio.provider.ts';

const TOKEN = 'token-oauth-da-loja';
const NFE_KEY = '23261112345678000199550010000000011000000011';
const OTHER_KEY = '23261112345678000199550010000000021000000027';

describe('shipping labels with LABEL_PROVIDER=melhorenvio (strict fake)', () => {
  let me: FakeMelhorEnvio;
  let t: TestApp;
  let staff: TestStaff;
  let buyer: Buyer;
  let shirt: MadeProduct;

  beforeAll(async () => {
    me = await startFakeMelhorEnvio({ token: TOKEN });
    t = await createTestApp({
      env: {
        LABEL_PROVIDER: 'melhorenvio',
        MELHOR_ENVIO_API_URL: me.url,
        MELHOR_ENVIO_TOKEN: TOKEN,
        MELHOR_ENVIO_USER_AGENT: 'Passada (tecnologia@passada.com.br)',
      },
    });
    staff = await createStaffAndLogin(t.app, 'financeiro');
    buyer = await makeBuyer(t.app);
    shirt = await makeProduct(t.database.db, {
      weightGrams: 180,
      dims: [30, 22, 3],
      stock: [{ color: 'Azul', size: 'G', quantity: 50 }],
    });
  });
  beforeEach(() => {
    me.seen.length = 0;
    me.setBalance(1000);
  });
  afterAll(async () => {
    await t.close();
    await me.close();
  });

  async function paidOrder(quantity = 1) {
    const draft = orderDraft(buyer, [{ product: shirt, quantity }], { frete: 'SEDEX' });
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [shirt]);
    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    return (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
  }
  const generate = async (id: number, chave_nfe?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/painel/orders/labels/',
      headers: staff.headers,
      payload: { pedidos: [{ id, ...(chave_nfe ? { chave_nfe } : {}) }] },
    });
    expect(res.statusCode).toBe(200);
    return res.json().resultados[0];
  };
  const calls = (path: string) => me.seen.filter((s) => s.path === `/api/v2${path}`);
  const labelOf = async (id: number) =>
    (await t.database.db.select().from(shippingLabels).where(eq(shippingLabels.orderId, id)))[0];

  it('puts the label in the cart with the NF-e key, pays it, generates it and fills in the tracking code', async () => {
    const id = await paidOrder(2);
    const result = await generate(id, NFE_KEY);
    expect(result).toMatchObject({ pedido: id, situacao: 'comprada', erro: null });
    expect(result.codigo_rastreio).toMatch(/^QB\d{9}BR$/);
    const [cart] = calls('/me/cart');
    expect(cart!.userAgent).toBe('Passada (tecnologia@passada.com.br)');
    expect(cart!.body).toMatchObject({
      service: 2,
      from: {
        company_document: expect.any(String),
        address: 'Av. Beira Mar',
        number: '3000',
        complement: 'loja 12',
        postal_code: '60165121',
        state_abbr: 'CE',
      },
      to: {
        postal_code: buyer.zipCode.replace(/\D/g, ''),
        name: expect.any(String),
        address: 'Av. Beira Mar',
        number: '100',
      },
      volumes: [{ weight: 0.36, length: 30, width: 22, height: 6 }],
      options: {
        insurance_value: (shirt.priceCents * 2) / 100,
        non_commercial: false,
        invoice: { key: NFE_KEY },
      },
    });
    const ref = (await labelOf(id))!.providerRef!;
    expect(calls('/me/shipment/checkout').map((c) => c.body)).toEqual([{ orders: [ref] }]);
    expect(calls('/me/shipment/generate').map((c) => c.body)).toEqual([{ orders: [ref] }]);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${id}/`,
      headers: staff.headers,
    });
    expect(detail.json().codigo_rastreio).toBe(result.codigo_rastreio);
  });

  it('sends the house number and complement apart from the street; the cart refuses a side without a number', async () => {
    const neighbour = await makeBuyer(t.app, {
      street: 'Rua Canuto de Aguiar',
      number: '1200',
      complement: 'Apto 2',
    });
    const draft = orderDraft(neighbour, [{ product: shirt, quantity: 1 }], { frete: 'SEDEX' });
    const total = await draftTotalCents(t.app, neighbour.zipCode, draft, [shirt]);
    const created = await createOrderPix(t.app, neighbour.headers, draft, total);
    const id = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
    const [cart] = calls('/me/cart');
    expect(cart!.body.to).toMatchObject({
      address: 'Rua Canuto de Aguiar',
      number: '1200',
      complement: 'Apto 2',
    });
    expect(JSON.stringify(cart!.body.to)).not.toContain('Aguiar, 1200');

    // As the API does, a cart whose recipient has no number is refused, field by field.
    const { number: _number, ...withoutNumber } = cart!.body.to as Record<string, unknown>;
    const refused = await fetch(`${me.url}/me/cart`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': 'Passada (tecnologia@passada.com.br)',
      },
      body: JSON.stringify({ ...cart!.body, to: withoutNumber }),
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: unknown }).errors).toEqual({
      'to.number': ['O campo to.number é obrigatório.'],
    });
  });

  it('asks for the NF-e key before calling Melhor Envio (commercial shipments need it)', async () => {
    const id = await paidOrder();
    expect(await generate(id)).toMatchObject({
      situacao: 'erro',
      erro: 'O Melhor Envio exige a chave da NF-e autorizada para envios comerciais.',
    });
    expect(me.seen).toHaveLength(0);
  });

  it('shows the refusal of an invalid key in Portuguese, pays nothing, and takes a corrected key', async () => {
    const id = await paidOrder();
    me.refuseKey(OTHER_KEY);
    expect(await generate(id, OTHER_KEY)).toMatchObject({
      situacao: 'erro',
      erro: 'Melhor Envio recusou a etiqueta: A chave da nota fiscal é inválida.',
    });
    expect(calls('/me/shipment/checkout')).toHaveLength(0);
    expect((await labelOf(id))?.providerRef).toBeNull();
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
  });

  it('without balance keeps the cart label and, once topped up, pays that same one', async () => {
    const id = await paidOrder();
    me.setBalance(5);
    expect(await generate(id, NFE_KEY)).toMatchObject({
      situacao: 'erro',
      erro: 'Saldo insuficiente no Melhor Envio: Você não tem saldo suficiente para esta compra.',
    });
    const ref = (await labelOf(id))!.providerRef;
    expect(ref).toBeTruthy();
    me.setBalance(1000);
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
    expect(calls('/me/cart')).toHaveLength(1);
    expect((await labelOf(id))!.providerRef).toBe(ref);
  });

  it('when Melhor Envio is down says so, and the next try buys', async () => {
    const id = await paidOrder();
    me.goDown(1);
    expect(await generate(id, NFE_KEY)).toMatchObject({
      situacao: 'erro',
      erro: 'Melhor Envio fora do ar; tente de novo em instantes.',
    });
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'comprada' });
  });

  it('never pays twice: a checkout whose answer was lost is read back, and Melhor Envio refuses a second payment', async () => {
    const id = await paidOrder();
    me.dropAfterCheckout(1);
    expect(await generate(id, NFE_KEY)).toMatchObject({ situacao: 'erro' });
    const ref = (await labelOf(id))!.providerRef!;
    expect(me.orders.get(ref)!.status).toBe('released');
    const again = await generate(id, NFE_KEY);
    expect(again).toMatchObject({ situacao: 'comprada', codigo_rastreio: me.orders.get(ref)!.tracking });
    expect(calls('/me/shipment/checkout')).toHaveLength(1);
    expect(calls('/me/cart')).toHaveLength(1);
    // Melhor Envio's own answer to a second checkout of the same label (what the read-back avoids).
    const res = await fetch(`${me.url}/me/shipment/checkout`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': 'teste',
      },
      body: JSON.stringify({ orders: [ref] }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(/já foi pago/);
  });

  it('prints through the page Melhor Envio answers', async () => {
    const id = await paidOrder();
    await generate(id, NFE_KEY);
    const ref = (await labelOf(id))!.providerRef!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/labels.pdf?pedidos=${id}`,
      headers: staff.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: `https://melhorenvio.com.br/imprimir/${ref}` });
    expect(calls('/me/shipment/print').map((c) => c.body)).toEqual([{ mode: 'private', orders: [ref] }]);
  });

  it('reads tracking: posted ships the order, delivered closes it with the carrier’s delivery day', async () => {
    const id = await paidOrder();
    await generate(id, NFE_KEY);
    const ref = (await labelOf(id))!.providerRef!;
    me.move(ref, 'posted', '2026-11-24 10:00:00');
    await t.app.labels.trackAll();
    const read = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/painel/orders/${id}/`, headers: staff.headers })
      ).json();
    expect((await read()).status).toBe('enviado');
    me.move(ref, 'delivered', '2026-11-26 23:30:00');
    await t.app.labels.trackAll();
    expect((await read()).status).toBe('entregue');
    const [delivery] = await t.database.db
      .select()
      .from(orderDeliveries)
      .where(eq(orderDeliveries.orderId, id));
    // 23:30 in Brasília is still the 26th in Fortaleza (same offset).
    expect(delivery).toMatchObject({ deliveredOn: '2026-11-26', source: 'rastreio' });
    expect(calls('/me/shipment/tracking').at(-1)!.body.orders).toContain(ref);
  });

  it('reports a refused token as such', async () => {
    const id = await paidOrder();
    const request = (await labelOf((await t.database.db.select().from(shippingLabels))[0]!.orderId))!.request;
    const stale = createMelhorEnvioProvider({
      baseUrl: me.url,
      token: 'vencido',
      userAgent: 'Passada (t@p.br)',
    });
    await expect(stale.create({ ...request, orderId: id, nfeKey: NFE_KEY })).rejects.toMatchObject({
      code: 'nao_autorizado',
      reason: 'Melhor Envio recusou o token de acesso da loja.',
    });
    expect(calls('/me/cart')).toHaveLength(1);
  });

  it('cancels the label of a cancelled order with its documented request; a posted one is refused with the reason', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const cancel = (id: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/painel/orders/${id}/status/`,
        headers: admin.headers,
        payload: { status: 'cancelado', motivo: 'Cliente desistiu' },
      });
    const view = async (id: number) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/painel/orders/${id}/etiqueta/`,
          headers: staff.headers,
        })
      ).json();

    const id = await paidOrder();
    await generate(id, NFE_KEY);
    const ref = (await labelOf(id))!.providerRef!;
    expect((await cancel(id)).statusCode).toBe(200);
    await expect.poll(async () => (await view(id)).situacao, { timeout: 45_000 }).toBe('cancelada');
    expect(calls('/me/shipment/cancel').map((c) => c.body)).toEqual([
      { order: { id: ref, reason_id: '2', description: `Pedido ${id} cancelado` } },
    ]);
    expect(me.orders.get(ref)?.status).toBe('canceled');
    // Asked again (a retry after a lost answer): read back as cancelled, not sent again.
    await t.app.labels.cancelForOrder(id);
    await t.database.db
      .update(shippingLabels)
      .set({ status: 'comprada' })
      .where(eq(shippingLabels.orderId, id));
    await t.app.labels.cancelForOrder(id);
    expect(calls('/me/shipment/cancel')).toHaveLength(1);
    expect((await labelOf(id))?.status).toBe('cancelada');

    // Posted at the carrier before the tracking run saw it: Melhor Envio refuses, the order still cancels.
    const posted = await paidOrder();
    await generate(posted, NFE_KEY);
    const postedRef = (await labelOf(posted))!.providerRef!;
    me.move(postedRef, 'posted', '2026-11-24 10:00:00');
    expect((await cancel(posted)).statusCode).toBe(200);
    await expect
      .poll(async () => (await view(posted)).cancelamento_recusado, { timeout: 45_000 })
      .toBe(
        'Melhor Envio recusou o cancelamento: Este envio não pode ser cancelado: o objeto já foi postado.',
      );
    expect((await view(posted)).situacao).toBe('comprada');
    expect(me.orders.get(postedRef)?.status).toBe('posted');
  });

  it('asks again later when Melhor Envio is down at the cancellation', async () => {
    const id = await paidOrder();
    await generate(id, NFE_KEY);
    const ref = (await labelOf(id))!.providerRef!;
    me.goDown(1);
    await expect(t.app.labels.cancelForOrder(id)).rejects.toMatchObject({ code: 'indisponivel' });
    expect((await labelOf(id))?.status).toBe('comprada');
    await t.app.labels.cancelForOrder(id);
    expect((await labelOf(id))?.status).toBe('cancelada');
    expect(me.orders.get(ref)?.status).toBe('canceled');
  });
});
