import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { charges, couponUses, orders, registrations } from '../../db/schema/index.ts';
import { waitForMail, waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createCoupon, previewCoupon } from '../../test/factories/coupons.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { type Buyer, makeBuyer, orderDraft, postOrder, quoteCents } from '../../test/factories/orders.ts';
import { createStaffAndLogin } from '../../test/factories/painel.ts';
import { cardToken, chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza on 23 November 2026.
const START = new Date('2026-11-23T12:00:00Z');
const TODAY = '2026-11-23';
const CARD = { approved: '4111111111111111', refused: '4000000000000002' };
const HOLDER_CPF = '40364478829';

/** A cart with products and event registrations, paid with one charge (docs/decisions/0020). */
describe('mixed cart: products and event registrations in one order', () => {
  const t = useClockedTestApp(START, { env: { PIX_EXPIRATION_SECONDS: '1800' } });
  let buyer: Buyer;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
  });

  const db = () => t.app.db;
  const newEvent = (overrides: Parameters<typeof makeEvent>[1] = {}) =>
    makeEvent(db(), {
      today: TODAY,
      kitSizes: [
        { size: 'P', left: 10 },
        { size: 'M', left: 10 },
      ],
      ...overrides,
    });
  const cat = (e: MadeEvent, i = 0) => e.days[0]!.categories[i]!.id;
  const kit = (e: MadeEvent, i = 0) => e.kitSizes![i]!.id;
  const person = participantsFrom(200_000_000);
  const stockOf = async (p: MadeProduct) =>
    (await t.app.catalog.getProduct(p.id, { color: p.stock[0]!.colorId, size: p.stock[0]!.sizeId })).stock[0]!
      .quantity;
  const countCharges = async () => (await db().select({ id: charges.id }).from(charges)).length;
  const registrationsOfOrder = (orderId: number) =>
    db().select().from(registrations).where(eq(registrations.orderId, orderId));
  const cartPix = (draft: unknown, totalCents: number, who: Buyer = buyer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: who.headers,
      payload: { total: totalCents / 100, finalidade: 'pedido', pedido: draft },
    });
  const cartCard = async (draft: unknown, totalCents: number, number: string, installments: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...buyer.headers, 'idempotency-key': randomUUID() },
      payload: {
        birth: '1988-03-09',
        payment_token: await cardToken(t.app, {
          number,
          holderName: 'Maria Silva',
          holderDocument: HOLDER_CPF,
        }),
        name: 'Maria Silva',
        cpf: HOLDER_CPF,
        phone: '85999999999',
        email: buyer.email,
        total: totalCents / 100,
        installments,
        finalidade: 'pedido',
        pedido: draft,
      },
    });
  /** A shirt (R$ 89,90) and two participants of the 10 km (R$ 109,90 each), shipped by PAC. */
  async function shirtAndTwo(event: MadeEvent, shirtStock = 5) {
    const product = await makeProduct(db(), {
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: shirtStock }],
    });
    const ana = person(event, 'Ana Souza', cat(event, 1), { tamanho_camisa: kit(event, 0) });
    const bia = person(event, 'Beatriz Lima', cat(event, 1), { tamanho_camisa: kit(event, 1) });
    const draft = { ...orderDraft(buyer, [{ product }]), inscricoes: [ana, bia] };
    const shippingCents = await quoteCents(t.app, buyer.zipCode, orderDraft(buyer, [{ product }]));
    return { product, ana, bia, draft, totalCents: 8990 + shippingCents + 2 * 10990, shippingCents };
  }

  it('Pix: one charge holds the shirt, both places and both kit sizes; paying creates ONE order with both registrations', async () => {
    const event = await newEvent({ name: 'Corrida das Famílias' });
    const { product, ana, bia, draft, totalCents, shippingCents } = await shirtAndTwo(event);

    // The server prices the whole cart: a wrong total is refused with the right one.
    const wrong = await cartPix(draft, totalCents - 100);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'total_divergente', total_correto: totalCents / 100 });

    const created = await cartPix(draft, totalCents);
    expect(created.statusCode).toBe(201);
    const { txid } = created.json();
    expect(await stockOf(product)).toBe(4);
    expect(await placesLeft(db(), cat(event, 1))).toBe(98);
    expect([await kitLeft(db(), kit(event, 0)), await kitLeft(db(), kit(event, 1))]).toEqual([9, 9]);

    const paid = await simulatePixPaid(t.app, txid);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: expect.any(Number) });
    const orderId = paid.json().pedido_id as number;
    await simulatePixPaid(t.app, txid); // a repeated webhook creates nothing more
    expect(await db().select().from(orders).where(eq(orders.id, orderId))).toHaveLength(1);

    const answered = await postOrder(t.app, buyer.headers, txid);
    expect(answered.statusCode).toBe(201);
    const order = answered.json();
    expect(order).toMatchObject({
      id: orderId,
      servico_frete: 'PAC',
      frete: shippingCents / 100,
      subtotal: 89.9,
      total: totalCents / 100,
      items: [expect.objectContaining({ product: product.id, quantity: 1 })],
    });
    expect(order.inscricoes).toEqual([
      expect.objectContaining({
        evento: event.id,
        nome_evento: 'Corrida das Famílias',
        nome_completo: 'Ana Souza',
        categorias: ['10 km'],
        tamanho_camisa: 'P',
        total: 109.9,
      }),
      expect.objectContaining({ nome_completo: 'Beatriz Lima', tamanho_camisa: 'M' }),
    ]);

    // Each registration is a real one: linked to the order, found by its CPF, mailed with its number.
    const rows = await registrationsOfOrder(orderId);
    expect(rows.map((r) => r.cpf).sort()).toEqual([ana.cpf, bia.cpf].sort());
    for (const [p, row] of [
      [ana, rows.find((r) => r.cpf === ana.cpf)!],
      [bia, rows.find((r) => r.cpf === bia.cpf)!],
    ] as const) {
      const found = await t.app.inject({
        method: 'GET',
        url: `/api/participantes/cpf/${p.cpf}/?evento=${event.id}`,
        headers: buyer.headers,
      });
      expect(found.statusCode).toBe(200);
      expect(found.json()).toMatchObject({ id: row.id, qr_code: expect.stringMatching(/^data:image\/png/) });
      expect(await waitForMail(t.dataDir, p.email, `Inscrição nº ${row.id}`)).toContain(
        'Sua inscrição está confirmada',
      );
    }
    // "Minhas inscrições" lists the registrations paid inside the order, with their tickets.
    const mine = await t.app.inject({ method: 'GET', url: '/api/inscricoes/', headers: buyer.headers });
    expect(mine.statusCode).toBe(200);
    expect(
      mine
        .json()
        .map((r: { id: number }) => r.id)
        .sort(),
    ).toEqual(rows.map((r) => r.id).sort());
    expect(mine.json()[0]).toMatchObject({
      evento_detalhes: { id: event.id, data: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });
    // Each ticket is drawn when the card asks for it (docs/decisions/0047).
    const ticket = await t.app.inject({
      method: 'GET',
      url: `/api/inscricoes/${mine.json()[0].id}/qr-code/`,
      headers: buyer.headers,
    });
    expect(ticket.json()).toMatchObject({ qr_code: expect.stringMatching(/^data:image\/png/) });
    const mail = await waitForMailContaining(t.dataDir, `pedido nº ${orderId}`);
    expect(mail).toContain(`Inscrição nº ${rows[0]!.id}`);
    expect(mail).toContain('Endereço de entrega');
    expect(mail).toContain('Direito de arrependimento');

    const history = await t.app.inject({ method: 'GET', url: '/api/orders/', headers: buyer.headers });
    expect(history.json().find((o: { id: number }) => o.id === orderId).inscricoes).toHaveLength(2);
    // The units were sold: nothing comes back.
    expect(await stockOf(product)).toBe(4);
    expect(await placesLeft(db(), cat(event, 1))).toBe(98);
  });

  it('card with instalments, registrations only: no address, no shipping, one order with both', async () => {
    const event = await newEvent();
    const draft = {
      metodo_pagamento: 'cartao',
      inscricoes: [
        person(event, 'Carlos Pai', cat(event, 1)),
        person(event, 'Davi Filho', cat(event, 0), { data_nascimento: '2014-02-01' }),
      ],
    };
    const base = 10990 + 8990;
    const res = await cartCard(draft, base, CARD.approved, 3);
    expect(res.statusCode).toBe(200);
    const orderId = res.json().pedido_id as number;
    const order = (await postOrder(t.app, buyer.headers, res.json().txid)).json();
    expect(order).toMatchObject({
      id: orderId,
      items: [],
      address: null,
      servico_frete: null,
      frete: 0,
      parcelas: 3,
      metodo_pagamento: 'cartao',
      total: base / 100,
    });
    expect(order.inscricoes.map((r: { nome_completo: string }) => r.nome_completo)).toEqual([
      'Carlos Pai',
      'Davi Filho',
    ]);
    expect(await registrationsOfOrder(orderId)).toHaveLength(2);
    const mail = await waitForMailContaining(t.dataDir, `pedido nº ${orderId}`);
    expect(mail).not.toContain('Endereço de entrega');
    expect(mail).toContain('em até 7 dias a contar desta confirmação');
    expect(mail).toContain('Carlos Pai');
  });

  it('the back office shows the registrations; an order of registrations alone is never packed or shipped, only cancelled', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const event = await newEvent({ name: 'Corrida do Painel' });
    const onlyRegistrations = await cartPix(
      { metodo_pagamento: 'pix', inscricoes: [person(event, 'Elisa Painel', cat(event, 0))] },
      8990,
    );
    const { pedido_id: soloId } = (await simulatePixPaid(t.app, onlyRegistrations.json().txid)).json();
    const { draft, totalCents } = await shirtAndTwo(event);
    const { pedido_id: mixedId } = (
      await simulatePixPaid(t.app, (await cartPix(draft, totalCents)).json().txid)
    ).json();

    const solo = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${soloId}/`,
      headers: admin.headers,
    });
    expect(solo.statusCode).toBe(200);
    expect(solo.json()).toMatchObject({
      endereco: null,
      servico_frete: null,
      inscricoes: [
        expect.objectContaining({ nome_completo: 'Elisa Painel', nome_evento: 'Corrida do Painel' }),
      ],
      proximos_status: ['cancelado'],
    });
    const mixed = await t.app.inject({
      method: 'GET',
      url: `/api/painel/orders/${mixedId}/`,
      headers: admin.headers,
    });
    expect(mixed.json().inscricoes).toHaveLength(2);
    // Cancelling (which refunds the whole charge) is covered by painel-registrations.test.ts.
    expect(mixed.json().proximos_status).toEqual(['em separação', 'cancelado']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${soloId}/status/`,
      headers: admin.headers,
      payload: { status: 'em separação' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('transicao_invalida');
    expect(await registrationsOfOrder(mixedId)).toHaveLength(2);
  });

  it('the dashboard counts a cart’s registrations once, as registrations, and only what ships as awaiting shipment', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const dashboard = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/painel/dashboard/', headers: admin.headers })).json();
    const before = await dashboard();
    const event = await newEvent();
    const { draft, totalCents } = await shirtAndTwo(event);
    const paid = async (created: Awaited<ReturnType<typeof cartPix>>) => {
      expect(created.statusCode).toBe(201);
      expect((await simulatePixPaid(t.app, created.json().txid)).json()).toMatchObject({
        status: 'CONCLUIDA',
      });
    };
    await paid(await cartPix(draft, totalCents));
    await paid(
      await cartPix(
        { metodo_pagamento: 'pix', inscricoes: [person(event, 'Flavia Sozinha', cat(event, 0))] },
        8990,
      ),
    );
    const after = await dashboard();
    expect(after.vendas.hoje.inscricoes - before.vendas.hoje.inscricoes).toBeCloseTo(2 * 109.9 + 89.9, 2);
    expect(after.vendas.hoje.loja - before.vendas.hoje.loja).toBeCloseTo((totalCents - 2 * 10990) / 100, 2);
    expect(after.aguardando_envio - before.aguardando_envio).toBe(1);
  });

  it('a refused card gives everything back and keeps no participant’s personal data', async () => {
    const event = await newEvent();
    const { product, draft, totalCents } = await shirtAndTwo(event);
    const res = await cartCard({ ...draft, metodo_pagamento: 'cartao' }, totalCents, CARD.refused, 1);
    expect(res.statusCode).toBe(400);
    expect(await stockOf(product)).toBe(5);
    expect(await placesLeft(db(), cat(event, 1))).toBe(100);
    expect(await kitLeft(db(), kit(event, 0))).toBe(10);
    const charge = await chargeByTxid(t.app, res.json().txid);
    const stored = JSON.stringify(charge!.draft);
    expect(stored).not.toContain('Ana Souza');
    expect(stored).not.toContain(draft.inscricoes[0]!.cpf as string);
    expect((charge!.draft as { participants: unknown[] }).participants).toHaveLength(2);
  });

  it('an expired Pix gives back the stock, the places, the kit sizes and the coupon use, together', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const coupon = await createCoupon(t.app, admin.headers, { tipo: 'percentual', valor: 10, usos_max: 1 });
    const event = await newEvent();
    const { product, draft, totalCents } = await shirtAndTwo(event);
    const withCoupon = { ...draft, cupom: coupon.codigo.toLowerCase() };
    // 10% off the shirt only: a shop coupon covers no registration and no shipping.
    const created = await cartPix(withCoupon, totalCents - 899);
    expect(created.statusCode).toBe(201);
    const { txid } = created.json();
    const chargeId = (await chargeByTxid(t.app, txid))!.id;
    expect(await db().select().from(couponUses).where(eq(couponUses.chargeId, chargeId))).toHaveLength(1);

    t.clock = new Date(START.getTime() + 1801_000);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/status-pix/${txid}/`,
      headers: buyer.headers,
    });
    expect(status.json()).toMatchObject({ status: 'EXPIRADA' });
    expect(await stockOf(product)).toBe(5);
    expect(await placesLeft(db(), cat(event, 1))).toBe(100);
    expect([await kitLeft(db(), kit(event, 0)), await kitLeft(db(), kit(event, 1))]).toEqual([10, 10]);
    const [use] = await db().select().from(couponUses).where(eq(couponUses.chargeId, chargeId));
    expect(use!.releasedAt).toEqual(t.clock);
    // The coupon's one use is free again: someone else can take it.
    const other = await makeBuyer(t.app);
    const again = await cartPix(
      { ...orderDraft(other, [{ product }]), cupom: coupon.codigo },
      totalCents - 899 - 2 * 10990,
      other,
    );
    expect(again.statusCode).toBe(201);
  });

  it('the coupon preview prices the whole cart, even while the cart’s own Pix is open; paying again replaces it', async () => {
    const admin = await createStaffAndLogin(t.app, 'admin');
    const coupon = await createCoupon(t.app, admin.headers, { tipo: 'percentual', valor: 10 });
    const event = await newEvent();
    const { draft, totalCents } = await shirtAndTwo(event);
    expect((await cartPix(draft, totalCents)).statusCode).toBe(201);
    const preview = await previewCoupon(t.app, buyer.headers, {
      cupom: coupon.codigo,
      finalidade: 'pedido',
      pedido: draft,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      desconto: 8.99,
      total_sem_desconto: totalCents / 100,
      total: (totalCents - 899) / 100,
    });
    // Paying with the coupon replaces the open Pix: its places are not held twice.
    const again = await cartPix({ ...draft, cupom: coupon.codigo }, totalCents - 899);
    expect(again.statusCode).toBe(201);
    expect(await placesLeft(db(), cat(event, 1))).toBe(98);
  });

  describe('one participant refused fails the whole cart with a clear 4xx, nothing held', () => {
    async function expectNothingHeld(
      draft: unknown,
      totalCents: number,
      expected: { status: number; code: string; detail: RegExp },
      held: { product: MadeProduct; stock: number; categories: Array<[number, number]> },
    ) {
      const chargesBefore = await countCharges();
      const res = await cartPix(draft, totalCents);
      expect(res.statusCode).toBe(expected.status);
      expect(res.json()).toMatchObject({
        code: expected.code,
        detail: expect.stringMatching(expected.detail),
      });
      expect(await countCharges()).toBe(chargesBefore);
      expect(await stockOf(held.product)).toBe(held.stock);
      for (const [id, left] of held.categories) expect(await placesLeft(db(), id)).toBe(left);
    }

    it('CPF already registered in the category', async () => {
      const event = await newEvent();
      const { product, bia, draft, totalCents } = await shirtAndTwo(event);
      // Beatriz registered on her own first (the direct path, paid).
      const direct = await registrationPix(
        t.app,
        { ...bia, tamanho_camisa: kit(event, 0) },
        109.9,
        buyer.headers,
      );
      expect(direct.statusCode).toBe(201);
      await simulatePixPaid(t.app, direct.json().txid);
      await expectNothingHeld(
        draft,
        totalCents,
        { status: 409, code: 'cpf_ja_inscrito', detail: /^Beatriz Lima: Este CPF já está inscrito/ },
        { product, stock: 5, categories: [[cat(event, 1), 99]] },
      );
      expect(await kitLeft(db(), kit(event, 1))).toBe(10);
    });

    it('category sold out: one place left for two participants', async () => {
      const event = await newEvent({ days: [[{ name: '5 km' }, { name: '21 km', placesLeft: 1 }]] });
      const { product, draft, totalCents } = await shirtAndTwo(event);
      await expectNothingHeld(
        draft,
        totalCents,
        { status: 409, code: 'esgotado', detail: /^Beatriz Lima: Categoria esgotada: 21 km/ },
        { product, stock: 5, categories: [[cat(event, 1), 1]] },
      );
    });

    it('kit size sold out: one shirt P left for two participants', async () => {
      const event = await newEvent({
        kitSizes: [
          { size: 'P', left: 1 },
          { size: 'M', left: 10 },
        ],
      });
      const { product, ana, bia } = await shirtAndTwo(event);
      const draft = {
        ...orderDraft(buyer, [{ product }]),
        inscricoes: [ana, { ...bia, tamanho_camisa: kit(event, 0) }],
      };
      const shippingCents = await quoteCents(t.app, buyer.zipCode, orderDraft(buyer, [{ product }]));
      await expectNothingHeld(
        draft,
        8990 + shippingCents + 2 * 10990,
        { status: 409, code: 'tamanho_esgotado', detail: /^Beatriz Lima: Este tamanho de camisa esgotou/ },
        { product, stock: 5, categories: [[cat(event, 1), 100]] },
      );
      expect(await kitLeft(db(), kit(event, 0))).toBe(1);
    });

    it('the same person twice for one event', async () => {
      const event = await newEvent();
      const { product, ana, draft, totalCents } = await shirtAndTwo(event);
      await expectNothingHeld(
        { ...draft, inscricoes: [ana, { ...ana, categoria_evento: [cat(event, 0)] }] },
        totalCents - 2000,
        {
          status: 409,
          code: 'participante_repetido',
          detail: /^Ana Souza: Este participante já está no carrinho/,
        },
        { product, stock: 5, categories: [[cat(event, 0), 100]] },
      );
    });

    it('invalid participant data names the participant’s field; a race coupon is refused in the cart', async () => {
      const event = await newEvent();
      const { product, ana, draft, totalCents } = await shirtAndTwo(event);
      const bad = await cartPix(
        { ...draft, inscricoes: [ana, { ...ana, cpf: '111.111.111-11' }] },
        totalCents,
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toMatchObject({ 'pedido.inscricoes.1.cpf': 'CPF inválido.' });
      await expectNothingHeld(
        { ...draft, inscricoes: [{ ...ana, cupom: 'CORRIDA10' }] },
        totalCents - 10990,
        {
          status: 400,
          code: 'cupom_nao_aplicavel',
          detail: /^Ana Souza: Cupons de corrida valem na inscrição direta/,
        },
        { product, stock: 5, categories: [[cat(event, 1), 100]] },
      );
    });

    it('an empty cart, and products without an address, are refused', async () => {
      const empty = await cartPix({ metodo_pagamento: 'pix', items: [], inscricoes: [] }, 1000);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toMatchObject({ 'pedido.items': 'O carrinho está vazio.' });
      const product = await makeProduct(db());
      const { address_id: _, ...noAddress } = orderDraft(buyer, [{ product }]);
      const res = await cartPix(noAddress, 8990);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toMatchObject({ 'pedido.address_id': 'Escolha o endereço de entrega.' });
    });
  });

  it('a CPF registered meanwhile by someone else: the whole payment is returned, no order, no registration', async () => {
    const event = await newEvent();
    const { product, bia, draft, totalCents } = await shirtAndTwo(event);
    const created = await cartPix(draft, totalCents);
    expect(created.statusCode).toBe(201);
    // Another account registers Beatriz directly and pays first.
    const stranger = await makeBuyer(t.app);
    const direct = await registrationPix(t.app, bia, 109.9, stranger.headers);
    expect(direct.statusCode).toBe(201);
    await simulatePixPaid(t.app, direct.json().txid);

    const paid = await simulatePixPaid(t.app, created.json().txid);
    expect(paid.json()).toMatchObject({ status: 'DEVOLVIDA' });
    const charge = await chargeByTxid(t.app, created.json().txid);
    expect(await db().select().from(orders).where(eq(orders.chargeId, charge!.id))).toHaveLength(0);
    expect(
      await db().select().from(registrations).where(eq(registrations.chargeId, charge!.id)),
    ).toHaveLength(0);
    // Everything it held went back (the stranger keeps Beatriz's place).
    expect(await stockOf(product)).toBe(5);
    expect(await placesLeft(db(), cat(event, 1))).toBe(99);
    const answer = await postOrder(t.app, buyer.headers, created.json().txid);
    expect(answer.json()).toMatchObject({ code: 'pagamento_devolvido' });
  });
});
