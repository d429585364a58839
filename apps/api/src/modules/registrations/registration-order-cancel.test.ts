import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRefunds, orders, registrationChanges, registrations } from '../../db/schema/index.ts';
import { waitForMail } from '../../test/factories/accounts.ts';
import { makeProduct } from '../../test/factories/catalog.ts';
import { kitLeft, type MadeEvent, makeEvent, placesLeft } from '../../test/factories/events.ts';
import { type Buyer, makeBuyer, orderDraft, quoteCents } from '../../test/factories/orders.ts';
import { chargeByTxid, simulatePixPaid } from '../../test/factories/payments.ts';
import { participantsFrom } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 09:00 in Fortaleza on 23 November 2026; the races start a month later.
const START = new Date('2026-11-23T12:00:00Z');
const TODAY = '2026-11-23';

/**
 * One participant of a multi-participant order cancelled alone (docs/decisions/0041): their share
 * returned through a partial refund of the order's charge by their race's rules, the rest untouched.
 */
describe('cancelling one participant of an order', () => {
  const t = useClockedTestApp(START, { env: { PIX_EXPIRATION_SECONDS: '1800' } });
  let buyer: Buyer;

  beforeAll(async () => {
    buyer = await makeBuyer(t.app);
  });

  const db = () => t.app.db;
  const person = participantsFrom(560_000_000);
  const cat = (e: MadeEvent) => e.days[0]!.categories[1]!.id;
  const kit = (e: MadeEvent, i: number) => e.kitSizes![i]!.id;

  /** A shirt and two participants of the 10 km (R$ 109,90 each), paid by one Pix. */
  async function orderOfTwo(name: string) {
    const event = await makeEvent(db(), {
      name,
      today: TODAY,
      kitSizes: [
        { size: 'P', left: 10 },
        { size: 'M', left: 10 },
      ],
    });
    const product = await makeProduct(db(), {
      priceCents: 8990,
      stock: [{ color: 'Azul', size: 'M', quantity: 5 }],
    });
    const ana = person(event, 'Ana Souza', cat(event), { tamanho_camisa: kit(event, 0) });
    const bia = person(event, 'Beatriz Lima', cat(event), { tamanho_camisa: kit(event, 1) });
    const shipping = await quoteCents(t.app, buyer.zipCode, orderDraft(buyer, [{ product }]));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-pix/',
      headers: buyer.headers,
      payload: {
        total: (8990 + shipping + 2 * 10990) / 100,
        finalidade: 'pedido',
        pedido: { ...orderDraft(buyer, [{ product }]), inscricoes: [ana, bia] },
      },
    });
    expect(created.statusCode).toBe(201);
    const { txid } = created.json();
    const orderId = (await simulatePixPaid(t.app, txid)).json().pedido_id as number;
    const rows = await db().select().from(registrations).where(eq(registrations.orderId, orderId));
    const idOf = (n: string) => rows.find((r) => r.fullName === n)!.id;
    const charge = await chargeByTxid(t.app, txid);
    return { event, orderId, chargeId: charge!.id, ana: idOf('Ana Souza'), bia: idOf('Beatriz Lima') };
  }

  const refundsOf = (chargeId: number) =>
    db().select().from(chargeRefunds).where(eq(chargeRefunds.chargeId, chargeId));
  const registrationRow = async (id: number) =>
    (await db().select().from(registrations).where(eq(registrations.id, id)))[0]!;

  it('the runner cancels one participant: only their share comes back, the other and the order stay', async () => {
    const { event, orderId, chargeId, ana, bia } = await orderOfTwo('Corrida das Duas Amigas');
    expect(await placesLeft(db(), cat(event))).toBe(98);

    const quote = await t.app.inject({
      method: 'GET',
      url: `/api/inscricoes/${ana}/cancelamento/`,
      headers: buyer.headers,
    });
    expect(quote.json()).toEqual({
      permitido: true,
      motivo: null,
      valor_pago: 109.9,
      valor_devolvido: 109.9,
      valor_retido: 0,
      arrependimento: true,
    });
    const done = await t.app.inject({
      method: 'POST',
      url: `/api/inscricoes/${ana}/cancelar/`,
      headers: buyer.headers,
      payload: { valor_devolvido: 109.9 },
    });
    expect(done.statusCode).toBe(200);
    expect((await refundsOf(chargeId)).map((r) => r.amountCents)).toEqual([10990]);
    expect((await registrationRow(ana)).cancelledAt).not.toBeNull();
    expect((await registrationRow(bia)).cancelledAt).toBeNull();
    expect(await placesLeft(db(), cat(event))).toBe(99);
    expect([await kitLeft(db(), kit(event, 0)), await kitLeft(db(), kit(event, 1))]).toEqual([10, 9]);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).not.toBe('cancelado');
    const history = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, ana));
    expect(history).toMatchObject([{ kind: 'cancelamento', refundCents: 10990 }]);
    // Ana is told her share comes back; the buyer too, though the order stays.
    const anaEmail = (await registrationRow(ana)).email;
    await waitForMail(t.dataDir, anaEmail, 'a parte desta inscrição no pedido');
    await waitForMail(t.dataDir, buyer.email, 'a parte desta inscrição no pedido');
  });

  it('the order’s "Desistir" with one registration line: that participant refunded by their race’s rules, the rest untouched', async () => {
    const { event, orderId, chargeId, ana, bia } = await orderOfTwo('Corrida da Desistência Parcial');
    const withdrawn = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/desistencia/`,
      headers: buyer.headers,
      payload: { inscricoes: [bia] },
    });
    expect(withdrawn.statusCode).toBe(201);
    expect((await refundsOf(chargeId)).map((r) => r.amountCents)).toEqual([10990]);
    expect((await registrationRow(bia)).cancelledAt).not.toBeNull();
    expect((await registrationRow(ana)).cancelledAt).toBeNull();
    expect(await placesLeft(db(), cat(event))).toBe(99);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).not.toBe('cancelado');
  });
});
