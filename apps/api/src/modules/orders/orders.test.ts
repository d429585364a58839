import { randomUUID } from 'node:crypto';
import { COMPANY } from '@passada/core/company';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { charges, orders, products, stockReservations } from '../../db/schema/index.ts';
import { waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct, productImage } from '../../test/factories/catalog.ts';
import {
  type Buyer,
  createOrderPix,
  draftTotalCents,
  makeBuyer,
  orderDraft,
  postOrder,
} from '../../test/factories/orders.ts';
import { cardToken, chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-23T12:00:00Z');
const CPF = '40364478829';
const CARD = { approved: '4111111111111111', refused: '4000000000000002' };

describe('orders', () => {
  const t = useClockedTestApp(START, { env: { PIX_EXPIRATION_SECONDS: '1800' } });
  let buyer: Buyer;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
  });

  const db = () => t.app.db;
  const stockOf = async (p: MadeProduct, i = 0) =>
    (await t.app.catalog.getProduct(p.id, { color: p.stock[i]!.colorId, size: p.stock[i]!.sizeId })).stock[0]!
      .quantity;
  const countCharges = async () => (await db().select({ id: charges.id }).from(charges)).length;
  const countOrders = async () => (await db().select({ id: orders.id }).from(orders)).length;
  const reservationsOf = async (txid: string) => {
    const [c] = await db().select().from(charges).where(eq(charges.txid, txid));
    return db().select().from(stockReservations).where(eq(stockReservations.chargeId, c!.id));
  };
  const listOrders = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/orders/', headers });
  const waitForMail = (needle: string) => waitForMailContaining(t.dataDir, needle);

  /** A paid Pix order for `who`; answers the txid and the total charged. */
  async function buyWithPix(who: Buyer, lines: Parameters<typeof orderDraft>[1]) {
    const draft = orderDraft(who, lines);
    const total = await draftTotalCents(
      t.app,
      who.zipCode,
      draft,
      lines.map((l) => l.product),
    );
    const created = await createOrderPix(t.app, who.headers, draft, total);
    expect(created.statusCode).toBe(201);
    const { txid } = created.json();
    expect((await simulatePixPaid(t.app, txid)).json()).toMatchObject({ status: 'CONCLUIDA' });
    return { txid, total };
  }

  it('Pix: charge → payment → POST /api/orders/ answers 201 with the server’s total and a snapshot', async () => {
    const product = await makeProduct(db(), {
      name: 'Camiseta Dry Fit Aurora',
      priceCents: 8990,
      stock: [
        { color: 'Azul', size: 'M', quantity: 5 },
        { color: 'Preto', size: 'G', quantity: 2 },
      ],
    });
    const draft = orderDraft(buyer, [
      { product, quantity: 2 },
      { product, quantity: 1, stockIndex: 1 },
    ]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const shippingCents = total - 3 * 8990;
    expect(shippingCents).toBeGreaterThan(0);

    const created = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(created.statusCode).toBe(201);
    const { txid, valor } = created.json();
    expect(valor).toBe(total / 100);
    // Held as soon as the charge exists: nobody else can buy these units while it is payable.
    expect(await stockOf(product)).toBe(3);
    expect(await stockOf(product, 1)).toBe(1);
    expect(await reservationsOf(txid)).toHaveLength(2);

    // Before paying there is no order yet.
    const early = await postOrder(t.app, buyer.headers, txid);
    expect(early.statusCode).toBe(402);
    expect(early.json().detail).toMatch(/ainda não foi confirmado/);

    const paid = await simulatePixPaid(t.app, txid);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: expect.any(Number) });

    const res = await postOrder(t.app, buyer.headers, txid);
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order).toEqual({
      id: paid.json().pedido_id,
      items: [
        {
          item_id: expect.any(Number),
          product: product.id,
          product_image: expect.stringMatching(/camiseta/),
          product_name: 'Camiseta Dry Fit Aurora',
          product_price: 89.9,
          quantity: 2,
          product_size: 'M',
          product_color: 'Azul',
        },
        expect.objectContaining({
          quantity: 1,
          product_size: 'G',
          product_color: 'Preto',
          product_price: 89.9,
        }),
      ],
      frete: shippingCents / 100,
      servico_frete: 'PAC',
      preco_juros: total / 100,
      juros: 0,
      subtotal: 269.7,
      total: total / 100,
      reembolsado: 0,
      parcelas: 1,
      metodo_pagamento: 'pix',
      status: 'pago',
      order_date: START.toISOString(),
      address: {
        street: 'Av. Beira Mar',
        number: '100',
        complement: '',
        neighborhood: 'Meireles',
        city: 'Fortaleza',
        state: 'CE',
        zip_code: '60165121',
        full_name: 'Maria Silva',
        phone: '(85) 99999-9999',
      },
    });
    // Asking again answers the same order: never a second one.
    const again = await postOrder(t.app, buyer.headers, txid);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(order.id);
    expect(await db().select().from(orders).where(eq(orders.id, order.id))).toHaveLength(1);

    // Sold: the units stay out of stock, the reservations are kept and never released.
    expect(await stockOf(product)).toBe(3);
    const held = await reservationsOf(txid);
    expect(held.map((r) => r.releasedAt)).toEqual([null, null]);

    const list = await listOrders(buyer.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toEqual(order);

    const mail = await waitForMail(`pedido nº ${order.id}`);
    expect(mail).toContain(`To: ${buyer.email}`);
    expect(mail).toContain('2 × Camiseta Dry Fit Aurora (Azul, M): R$\u00a0179,80');
    expect(mail).toContain('1 × Camiseta Dry Fit Aurora (Preto, G): R$\u00a089,90');
    expect(mail).toContain(`Frete (PAC`);
    expect(mail).toContain(`Total pago: R$\u00a0${(total / 100).toFixed(2).replace('.', ',')} (Pix)`);
    expect(mail).toContain('Av. Beira Mar, 100 – Meireles');
    expect(mail).toContain('Fortaleza/CE – CEP 60165-121');
    // Decreto 7.962/2013: the seller identifies itself in the confirmation too.
    expect(mail).toContain(`${COMPANY.legalName} · CNPJ ${COMPANY.cnpj}`);
    expect(mail).toMatch(/7 dias[\s\S]*art\. 49 do Código de Defesa do Consumidor/);
  });

  it("each line keeps a picture of the colour bought, not the product's first photo", async () => {
    const coral = productImage('top', 'frente', 'coral').url;
    const black = productImage('top', 'frente', 'preto').url;
    const product = await makeProduct(db(), {
      imageUrls: [coral, productImage('top', 'costas', 'coral').url, black],
      stock: [
        { color: 'Coral', size: 'M', quantity: 3 },
        { color: 'Preto', size: 'M', quantity: 3 },
      ],
    });
    const { txid } = await buyWithPix(buyer, [
      { product, quantity: 1, stockIndex: 1 },
      { product, quantity: 1, stockIndex: 0 },
    ]);
    const order = (await postOrder(t.app, buyer.headers, txid)).json();
    const imageOf = (color: string) =>
      order.items.find((i: { product_color: string }) => i.product_color === color).product_image;
    expect(imageOf('Preto')).toBe(black);
    expect(imageOf('Coral')).toBe(coral);
  });

  it('shows orders only to their owner: another user lists nothing and gets 404 for the txid', async () => {
    const product = await makeProduct(db());
    const { txid } = await buyWithPix(buyer, [{ product }]);
    const other = await makeBuyer(t.app);
    expect((await listOrders(other.headers)).json()).toEqual([]);
    const res = await postOrder(t.app, other.headers, txid);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Cobrança não encontrada.');
    expect((await postOrder(t.app, buyer.headers, 'naoexiste0000000000000000000')).statusCode).toBe(404);
    expect((await listOrders({ authorization: '' })).statusCode).toBe(401);
    expect((await postOrder(t.app, { authorization: '' }, txid)).statusCode).toBe(401);
  });

  it('lists the user’s orders newest first', async () => {
    const who = await makeBuyer(t.app);
    const product = await makeProduct(db());
    await buyWithPix(who, [{ product }]);
    t.clock = new Date(START.getTime() + 60_000);
    await buyWithPix(who, [{ product, quantity: 3 }]);
    const list = (await listOrders(who.headers)).json();
    expect(
      list.map((o: { order_date: string; items: Array<{ quantity: number }> }) => [
        o.order_date,
        o.items[0]!.quantity,
      ]),
    ).toEqual([
      [t.clock.toISOString(), 3],
      [START.toISOString(), 1],
    ]);
  });

  it('refuses another user’s address with 404, an unknown product or combination with 400, a hidden product with 409', async () => {
    const product = await makeProduct(db());
    const other = await makeBuyer(t.app);
    const draft = orderDraft({ addressId: other.addressId }, [{ product }]);
    const before = await countCharges();
    const foreign = await createOrderPix(t.app, buyer.headers, draft, 100_00);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBe('Endereço não encontrado.');

    const unknown = orderDraft(buyer, [{ product }]);
    unknown.items[0]!.product = 999_999;
    const noProduct = await createOrderPix(t.app, buyer.headers, unknown, 100_00);
    expect(noProduct.statusCode).toBe(400);
    expect(noProduct.json().detail).toBe('Produto não encontrado: 999999.');

    const wrongSize = orderDraft(buyer, [{ product }]);
    wrongSize.items[0]!.size = 999_999;
    const noCombo = await createOrderPix(t.app, buyer.headers, wrongSize, 100_00);
    expect(noCombo.statusCode).toBe(400);
    expect(noCombo.json().detail).toBe(`${product.name} não está disponível nessa cor e tamanho.`);

    const badService = await createOrderPix(
      t.app,
      buyer.headers,
      { ...orderDraft(buyer, [{ product }]), frete: 'MOTOBOY' as 'PAC' },
      100_00,
    );
    expect(badService.statusCode).toBe(400);
    expect(badService.json().detail).toMatch(/^Pedido inválido: frete/);

    // A product the back office hid is off sale, even from a cart kept from before it was hidden.
    const hidden = await makeProduct(db());
    await db().update(products).set({ hidden: true }).where(eq(products.id, hidden.id));
    const offSale = await createOrderPix(
      t.app,
      buyer.headers,
      orderDraft(buyer, [{ product: hidden }]),
      100_00,
    );
    expect(offSale.statusCode).toBe(409);
    expect(offSale.json()).toMatchObject({
      code: 'produto_indisponivel',
      detail: `${hidden.name} não está mais à venda. Remova-o do carrinho.`,
    });
    expect(await stockOf(hidden)).toBe(5);
    expect(await countCharges()).toBe(before);
    expect(await stockOf(product)).toBe(5);
  });

  it('keeps the order’s address when the address is later edited or deleted', async () => {
    const who = await makeBuyer(t.app, {
      street: 'Rua das Flores',
      number: '12',
      complement: 'Casa 2',
      neighborhood: 'Aldeota',
    });
    const product = await makeProduct(db());
    await buyWithPix(who, [{ product }]);
    const before = (await listOrders(who.headers)).json();
    expect(before[0].address).toMatchObject({ street: 'Rua das Flores', number: '12', complement: 'Casa 2' });

    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/users/addresses/${who.addressId}/`,
      headers: who.headers,
      payload: {
        full_name: 'Outra Pessoa',
        zip_code: '01310-100',
        state: 'SP',
        city: 'São Paulo',
        neighborhood: 'Bela Vista',
        street: 'Av. Paulista',
        number: '1000',
        phone: '(11) 98888-7777',
        is_primary: true,
      },
    });
    expect(edited.statusCode).toBe(200);
    expect((await listOrders(who.headers)).json()).toEqual(before);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/addresses/${who.addressId}/`,
      headers: who.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await listOrders(who.headers)).json()).toEqual(before);
  });

  it('refuses a tampered price or total with 409 and the correct amount; nothing charged, nothing held', async () => {
    const product = await makeProduct(db(), { priceCents: 15000 });
    const draft = orderDraft(buyer, [{ product, quantity: 2 }]);
    const correct = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    // The browser's copy of the price is display only: lowering it and the total changes nothing.
    draft.items[0]!.product_price = 1;
    const before = await countCharges();
    const res = await createOrderPix(t.app, buyer.headers, draft, 2 * 100 + 1000);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'total_divergente', total_correto: correct / 100 });
    expect(await countCharges()).toBe(before);
    expect(await stockOf(product)).toBe(5);
    const allHeld = await db().select().from(stockReservations);
    expect(allHeld.some((r) => r.productId === product.id)).toBe(false);

    // With the right total, the same tampered draft is charged the server's price.
    const ok = await createOrderPix(t.app, buyer.headers, draft, correct);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().valor).toBe(correct / 100);
  });

  describe('card', () => {
    const tokenize = (number: string) =>
      cardToken(t.app, { number, holderName: 'Maria Silva', holderDocument: CPF });
    const payCard = async (
      who: Buyer,
      product: MadeProduct,
      number: string,
      installments: number,
      expected = 200,
    ) => {
      const draft = orderDraft(who, [{ product, quantity: 2 }], { frete: 'SEDEX', metodo: 'cartao' });
      const base = await draftTotalCents(t.app, who.zipCode, draft, [product]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/pagar-cartao/',
        headers: { ...who.headers, 'idempotency-key': randomUUID() },
        payload: {
          birth: '1988-03-09',
          payment_token: await tokenize(number),
          name: 'Maria Silva',
          cpf: CPF,
          phone: '85999999999',
          email: who.email,
          produto: 'Pedido Passada',
          total: base / 100,
          installments,
          finalidade: 'pedido',
          pedido: draft,
        },
      });
      expect(res.statusCode).toBe(expected);
      return { res, base };
    };

    it('approved in 3 interest-free instalments: the order, with preco_juros equal to the price', async () => {
      const product = await makeProduct(db(), { priceCents: 12990 });
      const { res, base } = await payCard(buyer, product, CARD.approved, 3);
      expect(res.json().detalhes.data.status).toBe('paid');
      const chargeId = res.json().txid as string;
      const orderId = res.json().pedido_id;
      expect(orderId).toEqual(expect.any(Number));
      const order = await postOrder(t.app, buyer.headers, chargeId);
      expect(order.statusCode).toBe(201);
      expect(order.json()).toMatchObject({
        id: orderId,
        metodo_pagamento: 'cartao',
        parcelas: 3,
        servico_frete: 'SEDEX',
        subtotal: 259.8,
        juros: 0,
        total: base / 100,
        preco_juros: base / 100,
      });
      expect(await stockOf(product)).toBe(3);
    });

    it('approved in 4 instalments with interest: the order records the interest and the total paid', async () => {
      const product = await makeProduct(db(), { priceCents: 12990 });
      const { res, base } = await payCard(buyer, product, CARD.approved, 4);
      const data = res.json().detalhes.data;
      expect(data.total).toBeGreaterThan(base);
      const orderId = res.json().pedido_id;
      const order = (await listOrders(buyer.headers)).json().find((o: { id: number }) => o.id === orderId);
      expect(order).toMatchObject({
        parcelas: 4,
        total: data.total / 100,
        preco_juros: data.preco_juros,
        juros: (data.total - base) / 100,
      });
      const mail = await waitForMail(`pedido nº ${orderId}`);
      expect(mail).toContain('Juros do parcelamento');
      expect(mail).toContain('cartão de crédito em 4×');
    });

    it('refused: no order, the units go back, and POST /api/orders/ answers 409', async () => {
      const product = await makeProduct(db());
      const ordersBefore = await countOrders();
      const { res } = await payCard(buyer, product, CARD.refused, 1, 400);
      expect(res.json().code).toBe('pagamento_recusado');
      expect(await countOrders()).toBe(ordersBefore);
      expect(await stockOf(product)).toBe(5);
      const chargeId = res.json().txid as string;
      expect((await reservationsOf(chargeId)).every((r) => r.releasedAt !== null)).toBe(true);
      const order = await postOrder(t.app, buyer.headers, chargeId);
      expect(order.statusCode).toBe(409);
      expect(order.json().code).toBe('cobranca_nao_paga');
    });
  });

  it('an expired Pix gives its units back once and never becomes an order', async () => {
    const product = await makeProduct(db(), { stock: [{ color: 'Verde', size: 'P', quantity: 3 }] });
    const draft = orderDraft(buyer, [{ product, quantity: 2 }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    expect(await stockOf(product)).toBe(1);

    t.clock = new Date(START.getTime() + 1801_000);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: buyer.headers,
    });
    expect(status.json()).toEqual({ status: 'EXPIRADA', expira_em: expect.any(String) });
    expect(await stockOf(product)).toBe(3);
    expect((await reservationsOf(txid)).map((r) => r.releasedAt)).toEqual([t.clock]);

    expect((await simulatePixPaid(t.app, txid)).statusCode).toBe(409);
    const res = await postOrder(t.app, buyer.headers, txid);
    expect(res.statusCode).toBe(409);
    // A later sweep finds nothing more to give back.
    await t.app.payments.expireDue();
    expect(await stockOf(product)).toBe(3);
  });

  it('reconciliation ends overdue charges after asking the provider, so their units are for sale again', async () => {
    const product = await makeProduct(db(), { stock: [{ color: 'Roxo', size: 'GG', quantity: 1 }] });
    const first = await makeBuyer(t.app);
    const second = await makeBuyer(t.app);
    const draftA = orderDraft(first, [{ product }]);
    const total = await draftTotalCents(t.app, first.zipCode, draftA, [product]);
    const { txid } = (await createOrderPix(t.app, first.headers, draftA, total)).json();

    const draftB = orderDraft(second, [{ product }]);
    const refused = await createOrderPix(t.app, second.headers, draftB, total);
    expect(refused.statusCode).toBe(409);

    t.clock = new Date(START.getTime() + 3600_000);
    await t.app.payments.reconcileAll();
    expect((await chargeByTxid(t.app, txid))!.status).toBe('EXPIRADA');
    expect((await createOrderPix(t.app, second.headers, draftB, total)).statusCode).toBe(201);
    expect(await stockOf(product)).toBe(0);
  });

  it('a shopper’s own charges never block them: Pix → change shipping → Pix → card takes the last unit', async () => {
    const product = await makeProduct(db(), { stock: [{ color: 'Cinza', size: 'M', quantity: 1 }] });
    const who = await makeBuyer(t.app);
    const pac = orderDraft(who, [{ product }], { frete: 'PAC' });
    const sedex = orderDraft(who, [{ product }], { frete: 'SEDEX' });
    const first = await createOrderPix(
      t.app,
      who.headers,
      pac,
      await draftTotalCents(t.app, who.zipCode, pac, [product]),
    );
    expect(first.statusCode).toBe(201);
    const sedexTotal = await draftTotalCents(t.app, who.zipCode, sedex, [product]);
    const second = await createOrderPix(t.app, who.headers, sedex, sedexTotal);
    expect(second.statusCode).toBe(201);
    expect((await chargeByTxid(t.app, first.json().txid))!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const card = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...who.headers, 'idempotency-key': randomUUID() },
      payload: {
        birth: '1988-03-09',
        payment_token: await cardToken(t.app, {
          number: CARD.approved,
          holderName: 'Maria Silva',
          holderDocument: CPF,
        }),
        name: 'Maria Silva',
        cpf: CPF,
        email: who.email,
        total: sedexTotal / 100,
        installments: 1,
        finalidade: 'pedido',
        pedido: { ...sedex, metodo_pagamento: 'cartao' },
      },
    });
    expect(card.statusCode).toBe(200);
    expect(card.json().pedido_id).toEqual(expect.any(Number));
    expect((await chargeByTxid(t.app, second.json().txid))!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(await stockOf(product)).toBe(0);
  });

  it('caps the units of one colour × size a single charge may hold', async () => {
    const product = await makeProduct(db(), { stock: [{ color: 'Azul', size: 'G', quantity: 50 }] });
    const draft = orderDraft(buyer, [{ product, quantity: 11 }]);
    const res = await createOrderPix(t.app, buyer.headers, draft, 1000);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'limite_de_unidades',
      detail: expect.stringContaining('10 unidades'),
    });
    expect(await stockOf(product)).toBe(50);
  });

  it('two buyers of the last unit: one charge, the other gets 409 naming product, colour and size', async () => {
    const product = await makeProduct(db(), {
      name: 'Boné Passada Trail',
      priceCents: 5990,
      stock: [{ color: 'Laranja', size: 'Único', quantity: 1 }],
    });
    const [a, b] = [await makeBuyer(t.app), await makeBuyer(t.app)];
    const total = await draftTotalCents(t.app, a.zipCode, orderDraft(a, [{ product }]), [product]);
    const chargesBefore = await countCharges();
    const first = await createOrderPix(t.app, a.headers, orderDraft(a, [{ product }]), total);
    const second = await createOrderPix(t.app, b.headers, orderDraft(b, [{ product }]), total);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      code: 'estoque_insuficiente',
      detail: 'Estoque insuficiente para Boné Passada Trail (Laranja, Único): restam 0.',
    });
    expect(await countCharges()).toBe(chargesBefore + 1);
    expect(await stockOf(product)).toBe(0);
  });

  it('a cart whose second line is short holds nothing at all', async () => {
    const plenty = await makeProduct(db(), { stock: [{ color: 'Preto', size: 'P', quantity: 10 }] });
    const scarce = await makeProduct(db(), {
      name: 'Meia de Compressão',
      stock: [{ color: 'Branco', size: 'M', quantity: 1 }],
    });
    const draft = orderDraft(buyer, [
      { product: plenty, quantity: 4 },
      { product: scarce, quantity: 2 },
    ]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [plenty, scarce]);
    const res = await createOrderPix(t.app, buyer.headers, draft, total);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Estoque insuficiente para Meia de Compressão (Branco, M): restam 1.');
    expect(await stockOf(plenty)).toBe(10);
    expect(await stockOf(scarce)).toBe(1);
  });

  it('the same payment confirmed by the bank’s webhook, the simulator and the browser at once makes one order', async () => {
    const product = await makeProduct(db());
    const draft = orderDraft(buyer, [{ product, quantity: 1 }]);
    const total = await draftTotalCents(t.app, buyer.zipCode, draft, [product]);
    const { txid } = (await createOrderPix(t.app, buyer.headers, draft, total)).json();
    // Paid at the bank; nobody has told the server yet.
    t.app.providers.payments.simulator!.payPix(txid, t.clock);
    const ordersBefore = await countOrders();
    const results = await Promise.all([
      postOrder(t.app, buyer.headers, txid),
      simulatePixPaid(t.app, txid),
      postOrder(t.app, buyer.headers, txid),
      t.app.payments.receivePixNotifications([txid]).then(() => null),
      postOrder(t.app, buyer.headers, txid),
    ]);
    const posts = [results[0], results[2], results[4]];
    expect(posts.map((r) => r!.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(posts.map((r) => r!.json().id)).size).toBe(1);
    expect(await countOrders()).toBe(ordersBefore + 1);
    expect(await stockOf(product)).toBe(4);
  });
});
