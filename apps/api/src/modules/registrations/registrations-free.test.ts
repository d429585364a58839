import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, charges, couponUses } from '../../db/schema/index.ts';
import { waitForMail, waitForMailContaining } from '../../test/factories/accounts.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { type Buyer, makeBuyer, orderDraft, postOrder, quoteCents } from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom, registrationCard, registrationPix } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza on 25 November 2026.
const START = new Date('2026-11-25T12:00:00Z');
const TODAY = '2026-11-25';

/**
 * Nothing to pay (docs/decisions/0028-free-registrations.md): a free race, the 60+ half price of
 * R$ 0,01, a coupon that takes it all, a cart whose total is zero. Confirmed without a charge, through
 * the same rules as a paid registration.
 */
describe('free registrations', () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let admin: TestStaff;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
  });

  const db = () => t.app.db;
  const freeEvent = (overrides: Parameters<typeof makeEvent>[1] = {}) =>
    makeEvent(db(), {
      name: 'Corrida Solidária',
      today: TODAY,
      days: [
        [
          { name: '5 km', priceCents: 0 },
          { name: '1 centavo', priceCents: 1 },
          { name: '10 km', priceCents: 4000 },
        ],
      ],
      kitSizes: [{ size: 'M', left: 10 }],
      ...overrides,
    });
  const cat = (e: MadeEvent, i = 0) => e.days[0]!.categories[i]!.id;
  const person = participantsFrom(320_000_000);
  const confirmFree = (finalidade: 'inscricao' | 'pedido', draft: unknown, total = 0, who = buyer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/confirmar-gratuito/',
      headers: who.headers,
      payload: { total, finalidade, [finalidade]: draft },
    });
  const get = (url: string, headers = admin.headers) => t.app.inject({ method: 'GET', url, headers });
  const refundRows = async () => (await db().select().from(chargeRefunds)).length;

  it('a free race: Pix and card are refused with 409, confirming takes the place and shirt, mails the ticket and shows it everywhere', async () => {
    const event = await freeEvent();
    const ana = person(event, 'Ana Gratuita', cat(event, 0));
    const price = (
      await get(`/api/events/${event.id}/preco/?categorias=${cat(event, 0)}`, buyer.headers)
    ).json();
    expect(price).toMatchObject({ total: 0, total_centavos: 0 });

    // Nothing to pay never reaches the bank: a clear 409 instead of an error (it was a 500).
    const pix = await registrationPix(t.app, ana, 0.01, buyer.headers);
    expect(pix.statusCode).toBe(409);
    expect(pix.json()).toMatchObject({ code: 'nada_a_pagar', total_correto: 0 });
    const card = await registrationCard(t.app, {
      number: '4111111111111111',
      draft: ana,
      total: 0.01,
      user: buyer,
      key: 'cartao-gratuito-1',
    });
    expect(card.statusCode).toBe(409);
    expect(card.json()).toMatchObject({ code: 'nada_a_pagar', total_correto: 0 });
    expect(await placesLeft(db(), cat(event, 0))).toBe(100);

    const done = await confirmFree('inscricao', ana);
    expect(done.statusCode).toBe(201);
    const { txid, inscricao_id: id } = done.json();
    expect(done.json()).toMatchObject({ status: 'CONCLUIDA', inscricao_id: expect.any(Number) });
    expect(await placesLeft(db(), cat(event, 0))).toBe(99);
    expect(await kitLeft(db(), event.kitSizes![0]!.id)).toBe(9);
    const [charge] = await db().select().from(charges).where(eq(charges.txid, txid));
    expect(charge).toMatchObject({ method: 'gratuito', amountCents: 0, status: 'CONCLUIDA' });

    // The finish page's call after a payment answers it like a paid one.
    const answered = await t.app.inject({
      method: 'POST',
      url: '/api/participantes/cadastrar/',
      headers: buyer.headers,
      payload: { txid, ...ana },
    });
    expect(answered.statusCode).toBe(201);
    expect(answered.json()).toMatchObject({ id, total: 0 });
    const status = await get(`/api/status-pix/${txid}/`, buyer.headers);
    expect(status.json()).toMatchObject({ status: 'CONCLUIDA', inscricao_id: id });

    const mail = await waitForMail(t.dataDir, ana.email, `Inscrição nº ${id}`);
    expect(mail).toContain('Sua inscrição está confirmada');
    expect(mail).toContain('Valor: Gratuita');
    expect(mail).toContain(`QR code da inscri`);

    const found = await get(`/api/participantes/cpf/${ana.cpf}/?evento=${event.id}`, buyer.headers);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ id, total: 0, qr_code: expect.stringMatching(/^data:image\/png/) });

    // One per CPF and event, as for a paid one.
    const again = await confirmFree('inscricao', ana);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('cpf_ja_inscrito');
    expect(await placesLeft(db(), cat(event, 0))).toBe(99);

    // The back office lists, exports and counts it, as free.
    const list = (await get(`/api/painel/events/${event.id}/participants/`)).json();
    expect(list.results).toEqual([expect.objectContaining({ id, total: 0 })]);
    const csv = (await get(`/api/painel/events/${event.id}/participants.csv`)).body;
    const rows: Record<string, string>[] = parse(csv, { bom: true, delimiter: ';', columns: true });
    expect(rows).toEqual([expect.objectContaining({ 'Nome completo': 'Ana Gratuita', Gratuita: 'Sim' })]);
    const dashboard = (await get('/api/painel/dashboard/')).json();
    expect(
      dashboard.inscricoes_por_evento.find((e: { evento_id: number }) => e.evento_id === event.id),
    ).toMatchObject({ inscritos: 1, gratuitas: 1 });
    const detail = (await get(`/api/painel/registrations/${id}/`)).json();
    expect(detail.pagamento).toMatchObject({ metodo: 'gratuito', valor: 0 });
    expect(detail.impedimento_cancelamento).toBeNull();

    // Cancelling returns nothing (no refund, no provider) and frees the place and the shirt.
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/painel/registrations/${id}/cancel/`,
      headers: admin.headers,
      payload: { motivo: 'não vai correr' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await refundRows()).toBe(0);
    expect(await placesLeft(db(), cat(event, 0))).toBe(100);
    expect(await kitLeft(db(), event.kitSizes![0]!.id)).toBe(10);
    const notice = await waitForMail(t.dataDir, ana.email, 'cancelada');
    expect(notice).toContain('não há valor a devolver');
    expect(notice).not.toContain('devolução do valor integral');
  });

  it('follows the rules of a paid registration: places, deadline', async () => {
    const full = await freeEvent({ days: [[{ name: '5 km', priceCents: 0, placesLeft: 1 }]] });
    expect((await confirmFree('inscricao', person(full, 'Bruno Primeiro', cat(full)))).statusCode).toBe(201);
    const late = await confirmFree('inscricao', person(full, 'Caio Segundo', cat(full)));
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('esgotado');

    const closed = await freeEvent({ registrationDeadline: '2026-11-24' });
    const refused = await confirmFree('inscricao', person(closed, 'Davi Atrasado', cat(closed)));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('inscricoes_encerradas');
  });

  it('a paid race cannot be confirmed for free: 409 with the right total, nothing held', async () => {
    const event = await freeEvent();
    const res = await confirmFree('inscricao', person(event, 'Elisa Pagante', cat(event, 2)));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'total_divergente', total_correto: 40 });
    expect(await placesLeft(db(), cat(event, 2))).toBe(100);
  });

  it('60+ on a R$ 0,01 category: half rounds down to R$ 0,00 and takes the free path (it was a 500)', async () => {
    const event = await freeEvent();
    const senior = person(event, 'Fernanda Sessenta', cat(event, 1), { data_nascimento: '1950-03-01' });
    const price = (
      await get(
        `/api/events/${event.id}/preco/?categorias=${cat(event, 1)}&data_nascimento=1950-03-01`,
        buyer.headers,
      )
    ).json();
    expect(price).toMatchObject({ meia_entrada: true, total: 0, total_centavos: 0 });
    const pix = await registrationPix(t.app, senior, 0.01, buyer.headers);
    expect(pix.statusCode).toBe(409);
    expect(pix.json()).toMatchObject({ code: 'nada_a_pagar', total_correto: 0 });
    const done = await confirmFree('inscricao', senior);
    expect(done.statusCode).toBe(201);
    const found = await get(`/api/participantes/cpf/${senior.cpf}/?evento=${event.id}`, buyer.headers);
    expect(found.json()).toMatchObject({ meia_entrada: true, total: 0 });
  });

  it('a coupon that takes the whole price takes the same path, and its use is counted', async () => {
    const event = await freeEvent();
    const coupon = await createCoupon(t.app, admin.headers, {
      tipo: 'fixo',
      valor: 50,
      escopo: 'corridas',
    });
    const gil = person(event, 'Gil Cupom', cat(event, 2), { cupom: coupon.codigo });
    const pix = await registrationPix(t.app, gil, 40, buyer.headers);
    expect(pix.statusCode).toBe(409);
    expect(pix.json()).toMatchObject({ total_correto: 0 });
    const done = await confirmFree('inscricao', gil);
    expect(done.statusCode).toBe(201);
    const found = await get(`/api/participantes/cpf/${gil.cpf}/?evento=${event.id}`, buyer.headers);
    expect(found.json()).toMatchObject({ total: 0, cupom: coupon.codigo, desconto: 40 });
    expect(await db().select().from(couponUses).where(eq(couponUses.couponId, coupon.id))).toHaveLength(1);
  });

  it('a cart with a free registration and a paid shirt pays only the shirt and confirms both on payment', async () => {
    const event = await freeEvent();
    const product = await makeProduct(db(), {
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: 5 }],
    });
    const hugo = person(event, 'Hugo Carrinho', cat(event, 0));
    const draft = { ...orderDraft(buyer, [{ product }]), inscricoes: [hugo] };
    const shippingCents = await quoteCents(t.app, buyer.zipCode, orderDraft(buyer, [{ product }]));
    // Nothing free here: the free path refuses it with what there is to pay.
    const notFree = await confirmFree('pedido', draft);
    expect(notFree.statusCode).toBe(409);
    expect(notFree.json()).toMatchObject({ total_correto: (8990 + shippingCents) / 100 });

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: (8990 + shippingCents) / 100, finalidade: 'pedido', pedido: draft },
    });
    expect(created.statusCode).toBe(201);
    expect(await placesLeft(db(), cat(event, 0))).toBe(99);
    const paid = await simulatePixPaid(t.app, created.json().txid);
    expect(paid.json()).toMatchObject({ status: 'CONCLUIDA', pedido_id: expect.any(Number) });
    const order = (await postOrder(t.app, buyer.headers, created.json().txid)).json();
    expect(order).toMatchObject({ total: (8990 + shippingCents) / 100, metodo_pagamento: 'pix' });
    expect(order.inscricoes).toEqual([expect.objectContaining({ nome_completo: 'Hugo Carrinho', total: 0 })]);
  });

  it('a cart whose total is zero completes without a charge; cancelling it returns nothing and frees the places', async () => {
    const event = await freeEvent();
    const draft = {
      metodo_pagamento: 'gratuito',
      inscricoes: [
        person(event, 'Iara Familia', cat(event, 0)),
        person(event, 'Joana Familia', cat(event, 0)),
      ],
    };
    const pix = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: { total: 0.01, finalidade: 'pedido', pedido: draft },
    });
    expect(pix.json()).toMatchObject({ code: 'nada_a_pagar' });
    expect(pix.statusCode).toBe(409);
    const done = await confirmFree('pedido', draft);
    expect(done.statusCode).toBe(201);
    const orderId = done.json().pedido_id as number;
    expect(await placesLeft(db(), cat(event, 0))).toBe(98);
    const order = (await postOrder(t.app, buyer.headers, done.json().txid)).json();
    expect(order).toMatchObject({ id: orderId, total: 0, metodo_pagamento: 'gratuito' });
    expect(order.inscricoes).toHaveLength(2);
    const mail = await waitForMailContaining(t.dataDir, `pedido nº ${orderId}`);
    expect(mail).toContain('sem pagamento');
    expect(mail).toContain('Total: gratuito');

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/painel/orders/${orderId}/status/`,
      headers: admin.headers,
      payload: { status: 'cancelado' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(await refundRows()).toBe(0);
    expect(await placesLeft(db(), cat(event, 0))).toBe(100);
  });
});
