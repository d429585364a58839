import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chargeRefunds, orders, registrationChanges, registrations } from '../../db/schema/index.ts';
import { readOutbox } from '../../test/factories/accounts.ts';
import type { MadeEvent } from '../../test/factories/events.ts';
import { simulatePixPaid } from '../../test/factories/payments.ts';
import { paidRegistrationWorld, participant } from '../../test/factories/registrations.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026; the race starts on the 28th at 06:00.
const START = new Date('2026-11-24T13:00:00Z');
const TODAY = '2026-11-24';

/**
 * A cancellation after a transfer or a paid change of distance (docs/decisions/0047): the refund counts
 * everything paid for the registration and goes back across the charges that paid it, each never
 * above what it has left; the after-sale fees stay unless it is a withdrawal.
 */
describe('cancelling a registration paid by several charges', () => {
  const t = useClockedTestApp(START);
  const w = paidRegistrationWorld(t, { firstCpf: 560_000_000, email: 'varias', today: TODAY });
  const { db, nextCpf, request, newEvent, cats, pay, paidRegistration, saveRules } = w;

  /** The holder hands it to the friend, who pays the fee by card; answers the transfer's charge. */
  async function transferToFriend(event: MadeEvent, id: number, fee: number) {
    const cpf = nextCpf();
    const to = { nome_completo: 'Bruno Amigo', cpf, email: `amigo.${cpf}@example.com` };
    expect((await request('POST', w.buyer, `/api/inscricoes/${id}/transferir/`, to)).statusCode).toBe(201);
    const token = readOutbox(t.dataDir)
      .filter((m) => m.includes(to.email))
      .at(-1)
      ?.match(/\/inscricoes\/transferencia\/([A-Za-z0-9_-]+)/)?.[1];
    const draft = {
      ...participant(event, [cats(event)[0]], { ...to, data_nascimento: '1992-03-04' }),
      transferencia: token,
    };
    const paid = await pay(draft, fee, w.friend);
    expect(paid.statusCode).toBe(200);
    return chargeOfChange(id, 'transferencia');
  }

  /** The holder moves to the 10 km and pays the fee and the difference by card. */
  async function dearerDistance(event: MadeEvent, id: number, total: number) {
    const [five, ten] = cats(event);
    const paid = await pay({ troca_distancia: { inscricao: id, de: five, para: ten } }, total);
    expect(paid.statusCode).toBe(200);
    return chargeOfChange(id, 'troca_distancia');
  }

  async function chargeOfChange(id: number, kind: 'transferencia' | 'troca_distancia') {
    const rows = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id));
    const change = rows.find((r) => r.kind === kind);
    return (change!.detail as { cobranca: number }).cobranca;
  }

  const refundsOf = (chargeId: number) =>
    db()
      .select({ amountCents: chargeRefunds.amountCents, refundId: chargeRefunds.refundId })
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, chargeId))
      .orderBy(asc(chargeRefunds.id));

  async function cancelAs(who: { headers: Record<string, string> }, id: number) {
    const quote = await request('GET', who, `/api/inscricoes/${id}/cancelamento/`);
    expect(quote.statusCode).toBe(200);
    const done = await request('POST', who, `/api/inscricoes/${id}/cancelar/`, {
      valor_devolvido: quote.json().valor_devolvido,
    });
    expect(done.statusCode).toBe(200);
    return quote.json();
  }

  it('after a transfer, a withdrawal returns the original price and the new holder’s fee, each from its own charge', async () => {
    const event = await newEvent('Corrida do Cancelamento Transferido');
    await saveRules(event, { transferencia_taxa: 15 });
    const { id, chargeId } = await paidRegistration(event);
    const transferCharge = await transferToFriend(event, id, 15);

    // The new holder sees everything paid for it; within 7 days and 48 h before the start, all of it:
    // their fee back to them, the original price to the buyer who paid it.
    const quote = await cancelAs(w.friend, id);
    expect(quote).toEqual({
      permitido: true,
      motivo: null,
      valor_pago: 65,
      valor_devolvido: 65,
      valor_retido: 0,
      arrependimento: true,
      devolvido_a_voce: 15,
      devolvido_a_quem_pagou: 50,
    });
    expect(await refundsOf(chargeId)).toMatchObject([{ amountCents: 5000 }]);
    expect(await refundsOf(transferCharge)).toEqual([
      { amountCents: 1500, refundId: `cancela${id}c${transferCharge}` },
    ]);
    const sent = t.app.providers.payments.simulator!.refunds().slice(-2);
    expect(sent.map((r) => r.amountCents).sort()).toEqual([1500, 5000]);
    const [history] = await db()
      .select()
      .from(registrationChanges)
      .where(eq(registrationChanges.registrationId, id))
      .orderBy(asc(registrationChanges.id))
      .then((rows) => rows.filter((r) => r.kind === 'cancelamento'));
    expect(history).toMatchObject({ refundCents: 6500, feeCents: 0 });
  });

  it('after a transfer, outside the withdrawal the transfer fee stays and the rule’s fee comes off the price', async () => {
    const event = await newEvent('Corrida do Cancelamento Com Taxa');
    // 200 hours before the start: the race is nearer, so the rule after the window applies.
    await saveRules(event, {
      transferencia_taxa: 15,
      cancelamento_horas_minimas: 200,
      cancelamento_apos_prazo: 'taxa',
      cancelamento_taxa: 10,
    });
    const { id, chargeId } = await paidRegistration(event);
    const transferCharge = await transferToFriend(event, id, 15);

    const quote = await cancelAs(w.friend, id);
    expect(quote).toMatchObject({
      valor_pago: 65,
      valor_devolvido: 40,
      valor_retido: 25,
      arrependimento: false,
    });
    expect(await refundsOf(chargeId)).toMatchObject([{ amountCents: 4000 }]);
    expect(await refundsOf(transferCharge)).toEqual([]);
  });

  it('after a paid change of distance, the difference comes back from its own charge first; the change fee stays', async () => {
    const event = await newEvent('Corrida do Cancelamento Trocado');
    await saveRules(event, {
      troca_distancia_taxa: 5,
      cancelamento_horas_minimas: 200,
      cancelamento_apos_prazo: 'percentual',
      cancelamento_percentual_retido: 20,
    });
    const { id, chargeId } = await paidRegistration(event);
    const changeCharge = await dearerDistance(event, id, 35);

    // Paid R$ 85: R$ 80 of price (20% kept: R$ 16) and R$ 5 of fee (kept): R$ 64 back.
    const quote = await cancelAs(w.buyer, id);
    expect(quote).toMatchObject({ valor_pago: 85, valor_devolvido: 64, valor_retido: 21 });
    // The newest charge gives back its difference (R$ 30, not its fee), the registration's own the rest.
    expect(await refundsOf(changeCharge)).toEqual([
      { amountCents: 3000, refundId: `cancela${id}c${changeCharge}` },
    ]);
    expect(await refundsOf(chargeId)).toMatchObject([{ amountCents: 3400 }]);
    // A second cancellation is refused and returns nothing more.
    const again = await request('POST', w.buyer, `/api/inscricoes/${id}/cancelar/`, { valor_devolvido: 0 });
    expect(again.statusCode).toBe(409);
    expect((await refundsOf(changeCharge)).length + (await refundsOf(chargeId)).length).toBe(2);
  });

  it('staff cancelling after a paid change of distance return everything paid, from both charges', async () => {
    const event = await newEvent('Corrida do Cancelamento Pela Loja');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const { id, chargeId } = await paidRegistration(event);
    const changeCharge = await dearerDistance(event, id, 35);

    const res = await request('POST', w.admin, `/api/painel/registrations/${id}/cancel/`, {
      motivo: 'Evento lotado',
    });
    expect(res.statusCode).toBe(200);
    expect(await refundsOf(chargeId)).toMatchObject([{ amountCents: 5000 }]);
    expect(await refundsOf(changeCharge)).toMatchObject([{ amountCents: 3500 }]);
  });

  /** One participant of the 5 km (R$ 50) bought inside a shop order, paid by Pix. */
  async function orderedRegistration(event: MadeEvent) {
    const cpf = nextCpf();
    const draft = participant(event, [cats(event)[0]], {
      cpf,
      email: `pedido.${cpf}@example.com`,
      tamanho_camisa: event.kitSizes![0]!.id,
    });
    const created = await request('POST', w.buyer, '/api/pagar-pix/', {
      total: 50,
      finalidade: 'pedido',
      pedido: { metodo_pagamento: 'pix', inscricoes: [draft] },
    });
    expect(created.statusCode).toBe(201);
    const orderId = (await simulatePixPaid(t.app, created.json().txid)).json().pedido_id as number;
    const [row] = await db().select().from(registrations).where(eq(registrations.orderId, orderId));
    return { orderId, id: row!.id, chargeId: row!.chargeId };
  }

  it('staff cancelling the whole order return its charge and the change of distance’s, once', async () => {
    const event = await newEvent('Corrida do Pedido Cancelado Trocado');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const { orderId, id, chargeId } = await orderedRegistration(event);
    const changeCharge = await dearerDistance(event, id, 35);
    const sentBefore = t.app.providers.payments.simulator!.refunds().length;

    const res = await request('POST', w.admin, `/api/painel/orders/${orderId}/status/`, {
      status: 'cancelado',
      motivo: 'Evento adiado',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelado' });
    expect(await refundsOf(chargeId)).toMatchObject([{ amountCents: 5000 }]);
    // The change's charge gives back everything it took, its fee included (staff cancel: all of it).
    expect(await refundsOf(changeCharge)).toEqual([
      { amountCents: 3500, refundId: `cancela${id}c${changeCharge}` },
    ]);
    const sent = t.app.providers.payments.simulator!.refunds().slice(sentBefore);
    expect(sent.map((r) => r.amountCents).sort()).toEqual([3500, 5000]);
    const [row] = await db().select().from(registrations).where(eq(registrations.id, id));
    expect(row!.cancelledAt).not.toBeNull();

    // Again: refused, and nothing goes back twice.
    const again = await request('POST', w.admin, `/api/painel/orders/${orderId}/status/`, {
      status: 'cancelado',
    });
    expect(again.statusCode).toBe(409);
    expect(await refundsOf(chargeId)).toHaveLength(1);
    expect(await refundsOf(changeCharge)).toHaveLength(1);
    expect(t.app.providers.payments.simulator!.refunds().length).toBe(sentBefore + 2);
  });

  it('the buyer withdrawing the whole order gets back its charge and the change of distance’s', async () => {
    const event = await newEvent('Corrida do Pedido Desistido Trocado');
    await saveRules(event, { troca_distancia_taxa: 5 });
    const { orderId, id, chargeId } = await orderedRegistration(event);
    const changeCharge = await dearerDistance(event, id, 35);

    const res = await request('POST', w.buyer, `/api/orders/${orderId}/desistencia/`, { inscricoes: [id] });
    expect(res.statusCode).toBe(201);
    expect(await refundsOf(chargeId)).toMatchObject([{ amountCents: 5000 }]);
    expect(await refundsOf(changeCharge)).toEqual([
      { amountCents: 3500, refundId: `cancela${id}c${changeCharge}` },
    ]);
    // The withdrawal's record counts both.
    expect(res.json()).toMatchObject({ valor_reembolsado: 85 });
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('cancelado');
  });
});
