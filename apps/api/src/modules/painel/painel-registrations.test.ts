import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  charges,
  couponUses,
  eventCategories,
  eventKitSizes,
  registrationCategories,
  registrations,
} from '../../db/schema/index.ts';
import { waitForMail, waitForMailContaining } from '../../test/factories/accounts.ts';
import { type MadeProduct, makeProduct } from '../../test/factories/catalog.ts';
import { createCoupon } from '../../test/factories/coupons.ts';
import { type MadeEvent, makeEvent } from '../../test/factories/events.ts';
import {
  type Buyer,
  createOrderPix,
  makeBuyer,
  orderDraft,
  quoteCents,
} from '../../test/factories/orders.ts';
import { createStaffAndLogin, type TestStaff } from '../../test/factories/painel.ts';
import { chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import {
  cpfFrom,
  participant,
  registrationCard,
  registrationPix,
} from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';
const APPROVED_CARD = '4111111111111111';

/**
 * Staff cancel registrations (docs/decisions/0022-registration-cancellation.md): with their order, or
 * alone when bought on the direct path; the charge goes back whole, places and shirts too.
 */
describe('painel: cancelling registrations', () => {
  const t = useClockedTestApp(START);
  let buyer: Buyer;
  let admin: TestStaff;
  let operator: TestStaff;
  let cpfSeq = 310_000_000;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
  });

  const db = () => t.app.db;
  const nextCpf = () => cpfFrom(cpfSeq++);
  const newEvent = (name: string) =>
    makeEvent(db(), {
      name,
      today: TODAY,
      kitSizes: [
        { size: 'P', left: 10 },
        { size: 'M', left: 10 },
      ],
    });
  const cat = (e: MadeEvent, i = 0) => e.days[0]!.categories[i]!.id;
  const kit = (e: MadeEvent, i = 0) => e.kitSizes![i]!.id;
  const person = (e: MadeEvent, name: string, category: number, extra: Record<string, unknown> = {}) =>
    participant(e, [category], {
      nome_completo: name,
      cpf: nextCpf(),
      email: `${name.split(' ')[0]!.toLowerCase()}.${cpfSeq}@example.com`,
      ...extra,
    });
  const get = (who: { headers: Record<string, string> }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: who.headers });
  const post = (who: { headers: Record<string, string> }, url: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  const cancelRegistration = (who: TestStaff, id: number | string, payload: object = {}) =>
    post(who, `/api/painel/registrations/${id}/cancel/`, payload);
  const stockOf = async (p: MadeProduct) =>
    (await t.app.catalog.getProduct(p.id, { color: p.stock[0]!.colorId, size: p.stock[0]!.sizeId })).stock[0]!
      .quantity;
  const placesLeft = async (categoryId: number) =>
    (await db().select().from(eventCategories).where(eq(eventCategories.id, categoryId)))[0]!.placesLeft;
  const kitLeft = async (kitSizeId: number) =>
    (await db().select().from(eventKitSizes).where(eq(eventKitSizes.id, kitSizeId)))[0]!.left;
  const registrationsOfOrder = (orderId: number) =>
    db().select().from(registrations).where(eq(registrations.orderId, orderId));
  const refundsCount = () => t.app.providers.payments.simulator!.refunds().length;
  const participants = async (eventId: number, query = '') =>
    (await get(admin, `/api/painel/events/${eventId}/participants/${query}`)).json();

  /** A shirt and two participants in one cart, paid by Pix: the order's id and what it cost. */
  async function paidMixedOrder(event: MadeEvent) {
    const product = await makeProduct(db(), {
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: 5 }],
    });
    const ana = person(event, 'Ana Cancelada', cat(event, 1), { tamanho_camisa: kit(event, 0) });
    const bia = person(event, 'Beatriz Cancelada', cat(event, 1), { tamanho_camisa: kit(event, 1) });
    const draft = { ...orderDraft(buyer, [{ product }]), inscricoes: [ana, bia] };
    const shippingCents = await quoteCents(t.app, buyer.zipCode, orderDraft(buyer, [{ product }]));
    const totalCents = 8990 + shippingCents + 2 * 10990;
    const created = await createOrderPix(t.app, buyer.headers, draft, totalCents);
    expect(created.statusCode).toBe(201);
    const { txid } = created.json();
    const paid = await simulatePixPaid(t.app, txid);
    return { product, ana, bia, txid, totalCents, orderId: paid.json().pedido_id as number };
  }

  /** One participant registered on the direct path, paid by card: the registration's id and charge. */
  async function paidDirectRegistration(
    event: MadeEvent,
    extra: Record<string, unknown> = {},
    total = 109.9,
  ) {
    const draft = person(event, 'Carla Direta', cat(event, 1), { tamanho_camisa: kit(event, 0), ...extra });
    const paid = await registrationCard(t.app, {
      number: APPROVED_CARD,
      draft,
      total,
      user: buyer,
      key: randomUUID(),
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ inscricao_id: expect.any(Number) });
    return { draft, txid: paid.json().txid as string, id: paid.json().inscricao_id as number };
  }

  it('cancelling an order with registrations returns the whole charge, the shirt, both places and shirts, and frees the CPFs', async () => {
    const event = await newEvent('Corrida do Arrependimento');
    const salesBefore = (await get(admin, '/api/painel/dashboard/')).json().vendas.hoje;
    const { product, ana, txid, totalCents, orderId } = await paidMixedOrder(event);
    expect(await stockOf(product)).toBe(4);
    expect(await placesLeft(cat(event, 1))).toBe(98);
    expect([await kitLeft(kit(event, 0)), await kitLeft(kit(event, 1))]).toEqual([9, 9]);
    const before = await get(admin, `/api/painel/orders/${orderId}/`);
    expect(before.json().proximos_status).toEqual(['em separação', 'cancelado']);
    const refundsBefore = refundsCount();

    // Cancelling returns the payment: an operator is refused and nothing moves.
    const byOperator = await post(operator, `/api/painel/orders/${orderId}/status/`, {
      status: 'cancelado',
      motivo: 'direito de arrependimento',
    });
    expect(byOperator.statusCode).toBe(403);
    expect(byOperator.json()).toMatchObject({ code: 'sem_permissao' });
    expect(refundsCount()).toBe(refundsBefore);
    expect(await placesLeft(cat(event, 1))).toBe(98);
    expect((await get(admin, `/api/painel/orders/${orderId}/`)).json().status).toBe('pago');

    const res = await post(admin, `/api/painel/orders/${orderId}/status/`, {
      status: 'cancelado',
      motivo: 'direito de arrependimento',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'cancelado',
      pagamento: { status: 'DEVOLVIDA', devolucao: { status: 'DEVOLVIDO', valor: totalCents / 100 } },
      inscricoes: [
        expect.objectContaining({ nome_completo: 'Ana Cancelada', cancelada: true }),
        expect.objectContaining({ nome_completo: 'Beatriz Cancelada', cancelada: true }),
      ],
      proximos_status: [],
    });
    // The whole charge went back, once, through the provider.
    const charge = await chargeByTxid(t.app, txid);
    expect(t.app.providers.payments.simulator!.refunds()).toContainEqual(
      expect.objectContaining({ endToEndId: charge!.endToEndId, amountCents: totalCents }),
    );
    expect(refundsCount()).toBe(refundsBefore + 1);
    // Units, places and shirts are back.
    expect(await stockOf(product)).toBe(5);
    expect(await placesLeft(cat(event, 1))).toBe(100);
    expect([await kitLeft(kit(event, 0)), await kitLeft(kit(event, 1))]).toEqual([10, 10]);
    const rows = await registrationsOfOrder(orderId);
    expect(rows.map((r) => [r.cancelledAt?.toISOString(), r.cancelReason])).toEqual([
      [START.toISOString(), 'direito de arrependimento'],
      [START.toISOString(), 'direito de arrependimento'],
    ]);

    // A second cancellation changes nothing.
    const again = await post(admin, `/api/painel/orders/${orderId}/status/`, { status: 'cancelado' });
    expect(again.statusCode).toBe(409);
    expect(refundsCount()).toBe(refundsBefore + 1);
    expect(await placesLeft(cat(event, 1))).toBe(100);

    // The buyer's account shows the registrations cancelled; the buyer and each participant are told.
    const mine = (await get(buyer, '/api/orders/')).json().find((o: { id: number }) => o.id === orderId);
    expect(mine).toMatchObject({
      status: 'cancelado',
      inscricoes: [
        expect.objectContaining({ cancelada: true }),
        expect.objectContaining({ cancelada: true }),
      ],
    });
    const mail = await waitForMailContaining(t.dataDir, `pedido nº ${orderId} foi cancelado`);
    expect(mail).toMatch(/inscrições em Corrida do Arrependimento foram canceladas/);
    expect(mail).toMatch(/devolvido por Pix/);
    expect(await waitForMail(t.dataDir, ana.email as string, 'cancelada')).toContain(
      'Sua inscrição em Corrida do Arrependimento foi cancelada.',
    );

    // Listed as cancelled in the back office, counted nowhere.
    const list = await participants(event.id);
    expect(list.results).toHaveLength(2);
    expect(list.results[0].cancelamento).toMatchObject({ motivo: 'direito de arrependimento' });
    expect(list.contagem.find((c: { id: number }) => c.id === cat(event, 1))).toMatchObject({
      inscritos: 0,
      vagas_restantes: 100,
    });
    expect((await participants(event.id, '?status=pendente')).results).toHaveLength(0);
    expect((await participants(event.id, '?status=cancelada')).results).toHaveLength(2);
    const events = (await get(admin, '/api/painel/events/')).json();
    expect(events.find((e: { id: number }) => e.id === event.id)).toMatchObject({ inscritos: 0 });
    const dashboard = (await get(admin, '/api/painel/dashboard/')).json();
    expect(
      dashboard.inscricoes_por_evento.find((e: { evento_id: number }) => e.evento_id === event.id),
    ).toMatchObject({ inscritos: 0 });
    // Nothing of the returned charge counts as sold, in the shop nor in registrations.
    expect(dashboard.vendas.hoje.inscricoes).toBeCloseTo(salesBefore.inscricoes, 2);
    expect(dashboard.vendas.hoje.loja).toBeCloseTo(salesBefore.loja, 2);
    const csv = (await get(admin, `/api/painel/events/${event.id}/participants.csv`)).body;
    expect(csv).not.toContain('Ana Cancelada');

    // The audit keeps it.
    const audit = (await get(admin, '/api/painel/audit/?entity=pedido')).json();
    expect(audit.results[0]).toMatchObject({
      action: 'cancelado',
      entity_id: String(orderId),
      staff_email: admin.email,
      after: { status: 'cancelado', inscricoes_canceladas: rows.map((r) => r.id) },
    });

    // Ana's CPF may register in the same category again (the one-CPF-per-category rule ignores it).
    const redo = await registrationPix(t.app, ana, 109.9, buyer.headers);
    expect(redo.statusCode).toBe(201);
    expect((await simulatePixPaid(t.app, redo.json().txid)).json()).toMatchObject({
      status: 'CONCLUIDA',
      inscricao_id: expect.any(Number),
    });
    expect((await participants(event.id, '?status=pendente')).results).toHaveLength(1);
  });

  it('an order whose kit was picked up is not cancelled, and nothing moves', async () => {
    const event = await newEvent('Corrida do Kit Retirado');
    const { product, txid, orderId } = await paidMixedOrder(event);
    const [first] = await registrationsOfOrder(orderId);
    expect(
      (await post(operator, '/api/painel/checkin/', { evento: event.id, inscricao: first!.id })).statusCode,
    ).toBe(200);

    const res = await post(admin, `/api/painel/orders/${orderId}/status/`, { status: 'cancelado' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'kit_retirado' });
    expect(res.json().detail).toMatch(/já foi retirado/);
    expect((await chargeByTxid(t.app, txid))!.status).toBe('CONCLUIDA');
    expect(await stockOf(product)).toBe(4);
    expect(await placesLeft(cat(event, 1))).toBe(98);
    expect((await registrationsOfOrder(orderId)).every((r) => r.cancelledAt === null)).toBe(true);
  });

  it('a registration of an order is cancelled through its order (409 naming it)', async () => {
    const event = await newEvent('Corrida do Pedido');
    const { orderId } = await paidMixedOrder(event);
    const [first] = await registrationsOfOrder(orderId);

    const detail = await get(admin, `/api/painel/registrations/${first!.id}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      inscricao: { id: first!.id, pedido_id: orderId, cancelamento: null },
      impedimento_cancelamento: expect.stringContaining(`pedido nº ${orderId}`),
    });
    const res = await cancelRegistration(admin, first!.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'inscricao_de_pedido', pedido_id: orderId });
    expect(res.json().detail).toContain(`pedido nº ${orderId}`);
    expect((await registrationsOfOrder(orderId)).every((r) => r.cancelledAt === null)).toBe(true);
  });

  it('staff cancel a direct registration: the card is refunded, the place, shirt and coupon use go back, the buyer is told', async () => {
    const event = await newEvent('Corrida Direta');
    const coupon = await createCoupon(t.app, admin.headers, {
      tipo: 'fixo',
      valor: 20,
      escopo: 'corridas',
      usos_por_cpf: 1,
    });
    const { draft, txid, id } = await paidDirectRegistration(event, { cupom: coupon.codigo }, 89.9);
    expect(await placesLeft(cat(event, 1))).toBe(99);
    expect(await kitLeft(kit(event, 0))).toBe(9);

    const detail = await get(operator, `/api/painel/registrations/${id}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      inscricao: { id, nome_completo: 'Carla Direta', pedido_id: null, cancelamento: null },
      evento: { id: event.id, nome: 'Corrida Direta' },
      pagamento: { metodo: 'cartao', status: 'CONCLUIDA', valor: 89.9, devolucao: null },
      cancela: [{ id, nome_completo: 'Carla Direta' }],
      impedimento_cancelamento: null,
    });
    const refundsBefore = refundsCount();

    // It returns the payment: an operator is refused (403) and nothing is cancelled nor refunded.
    const byOperator = await cancelRegistration(operator, id, { motivo: 'desistência em 7 dias' });
    expect(byOperator.statusCode).toBe(403);
    expect(byOperator.json()).toEqual({
      code: 'sem_permissao',
      detail: 'Seu perfil não tem acesso a esta função.',
    });
    expect(refundsCount()).toBe(refundsBefore);
    expect(await placesLeft(cat(event, 1))).toBe(99);
    expect((await get(admin, `/api/painel/registrations/${id}/`)).json()).toMatchObject({
      inscricao: { cancelamento: null },
      pagamento: { status: 'CONCLUIDA', devolucao: null },
    });

    const res = await cancelRegistration(admin, id, { motivo: 'desistência em 7 dias' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      inscricao: { cancelamento: { motivo: 'desistência em 7 dias' } },
      pagamento: { status: 'DEVOLVIDA', devolucao: { status: 'DEVOLVIDO', valor: 89.9 } },
      impedimento_cancelamento: 'Esta inscrição já foi cancelada.',
    });
    const charge = await chargeByTxid(t.app, txid);
    expect(t.app.providers.payments.simulator!.refunds()).toContainEqual(
      expect.objectContaining({ cardChargeId: charge!.providerChargeId, amountCents: 8990 }),
    );
    expect(refundsCount()).toBe(refundsBefore + 1);
    expect(await placesLeft(cat(event, 1))).toBe(100);
    expect(await kitLeft(kit(event, 0))).toBe(10);
    const [use] = await db().select().from(couponUses).where(eq(couponUses.chargeId, charge!.id));
    expect(use!.status).toBe('liberado');
    const [catRow] = await db()
      .select()
      .from(registrationCategories)
      .where(eq(registrationCategories.registrationId, id));
    expect(catRow!.cancelledAt).not.toBeNull();

    // Twice is refused, with no second refund.
    const again = await cancelRegistration(admin, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'inscricao_cancelada' });
    expect(refundsCount()).toBe(refundsBefore + 1);

    // The buyer's lookup shows it cancelled, without the kit's QR code.
    const lookup = await get(buyer, `/api/participantes/cpf/${draft.cpf}/?evento=${event.id}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toMatchObject({ id, cancelada_em: START.toISOString() });
    expect(lookup.json().qr_code).toBeUndefined();

    // E-mails: the participant and the account holder, with the refund.
    const mail = await waitForMail(t.dataDir, draft.email as string, 'cancelada');
    expect(mail).toContain('Sua inscrição em Corrida Direta foi cancelada.');
    expect(mail).toContain(`Inscrição nº ${id}`);
    expect(mail).toContain('Motivo: desistência em 7 dias');
    expect(mail).toMatch(/estorno do valor integral de R\$\s89,90/);
    expect(
      await waitForMail(
        t.dataDir,
        buyer.email,
        'A inscrição que você fez para Carla Direta em Corrida Direta',
      ),
    ).toMatch(/estorno do valor integral/);

    // The kit is not handed out for it.
    const checkin = await post(admin, '/api/painel/checkin/', { evento: event.id, inscricao: id });
    expect(checkin.statusCode).toBe(409);
    expect(checkin.json()).toMatchObject({ code: 'inscricao_cancelada' });

    // The audit keeps it.
    const audit = (await get(admin, '/api/painel/audit/?entity=inscricao')).json();
    expect(audit.results[0]).toMatchObject({
      action: 'cancelado',
      entity_id: String(id),
      staff_email: admin.email,
      after: { cancelada: true, motivo: 'desistência em 7 dias', inscricoes: [id], devolucao: 89.9 },
    });

    // The dashboard's registration sales leave it out.
    const dashboard = (await get(admin, '/api/painel/dashboard/')).json();
    expect(
      dashboard.inscricoes_por_evento.find((e: { evento_id: number }) => e.evento_id === event.id),
    ).toMatchObject({ inscritos: 0 });
  });

  it('a cancelled registration no longer counts for its lot: the next runner pays the lot price again', async () => {
    const event = await makeEvent(db(), {
      name: 'Corrida do Lote',
      today: TODAY,
      days: [
        [{ name: '5 km', priceCents: 8000, lots: [{ name: '1º lote', priceCents: 5000, untilCount: 1 }] }],
      ],
    });
    const categoryId = cat(event, 0);
    const price = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/events/${event.id}/preco/?categorias=${categoryId}&data_nascimento=1990-05-10`,
        })
      ).json().itens[0];
    expect(await price()).toMatchObject({ preco: 50, lote: '1º lote' });
    const pix = await registrationPix(t.app, person(event, 'Lucia Lote', categoryId), 50, buyer.headers);
    expect(pix.statusCode, pix.body).toBe(201);
    const id = (await simulatePixPaid(t.app, pix.json().txid)).json().inscricao_id as number;
    expect(await price()).toMatchObject({ preco: 80, lote: null });

    expect((await cancelRegistration(admin, id)).statusCode).toBe(200);
    expect(await price()).toMatchObject({ preco: 50, lote: '1º lote' });
  });

  it('a registration whose kit was picked up is not cancelled', async () => {
    const event = await newEvent('Corrida do Kit Entregue');
    const { txid, id } = await paidDirectRegistration(event);
    expect(
      (await post(operator, '/api/painel/checkin/', { evento: event.id, inscricao: id })).statusCode,
    ).toBe(200);
    const detail = (await get(admin, `/api/painel/registrations/${id}/`)).json();
    expect(detail.impedimento_cancelamento).toMatch(/já foi retirado/);

    const res = await cancelRegistration(admin, id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'kit_retirado' });
    expect((await chargeByTxid(t.app, txid))!.status).toBe('CONCLUIDA');
    expect(await placesLeft(cat(event, 1))).toBe(99);
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.cancelledAt).toBeNull();
  });

  it('bad input gets a clear 4xx; only staff may cancel', async () => {
    expect((await cancelRegistration(admin, 'abc')).statusCode).toBe(400);
    const missing = await cancelRegistration(admin, 999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Inscrição não encontrada.');
    expect((await get(admin, '/api/painel/registrations/999999/')).statusCode).toBe(404);
    const event = await newEvent('Corrida dos Erros');
    const { id } = await paidDirectRegistration(event);
    const long = await cancelRegistration(admin, id, { motivo: 'x'.repeat(301) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toMatch(/300 caracteres/);
    expect((await post(buyer, `/api/painel/registrations/${id}/cancel/`)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/painel/registrations/${id}/cancel/`, payload: {} }))
        .statusCode,
    ).toBe(401);
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.cancelledAt).toBeNull();
    const [charge] = await db().select().from(charges).where(eq(charges.id, row!.chargeId));
    expect(charge!.status).toBe('CONCLUIDA');
  });
});
