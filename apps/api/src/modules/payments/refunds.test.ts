import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { chargeRefunds } from '../../db/schema/index.ts';
import {
  cardToken,
  chargeByTxid,
  makeFakePurpose,
  makeUser,
  orderPix,
  simulatePixPaid,
} from '../../test/factories/payments.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

const START = new Date('2026-11-22T12:00:00Z');
const CPF = '40364478829';

/** Partial refunds (docs/decisions/0036): several per charge, each by our id, never above what was paid. */
describe('partial refunds (simulado)', () => {
  const t = useClockedTestApp(START);
  let buyer: Awaited<ReturnType<typeof makeUser>>;

  beforeEach(async () => {
    buyer = await makeUser(t.app);
    t.app.payments.registerPurpose('order', makeFakePurpose({ unitCents: 5000, stock: 50 }).handler);
  });

  const part = (chargeId: number, refundId: string, amountCents: number) =>
    t.app.db.transaction((tx) =>
      t.app.payments.refundPart(tx, chargeId, { refundId, amountCents, reason: 'Item devolvido.' }),
    );
  const rowsOf = (chargeId: number) =>
    t.app.db
      .select()
      .from(chargeRefunds)
      .where(eq(chargeRefunds.chargeId, chargeId))
      .orderBy(chargeRefunds.id);

  async function paidPix(quantity: number) {
    const { txid } = (await orderPix(t.app, buyer.headers, quantity)).json();
    expect((await simulatePixPaid(t.app, txid)).json()).toMatchObject({ status: 'CONCLUIDA' });
    return (await chargeByTxid(t.app, txid))!;
  }

  it('Pix: two parts, the same id asked again, then too much refused, then the rest closes the charge', async () => {
    const charge = await paidPix(2);
    const first = await part(charge.id, 'retPix1', 3000);
    await t.app.payments.sendRefund(first!);
    // Asked again with the same id: the same row, nothing new at the bank.
    const again = await part(charge.id, 'retPix1', 3000);
    expect(again!.id).toBe(first!.id);
    await t.app.payments.sendRefund(again!);
    const bank = () =>
      t.app.providers.payments.simulator!.refunds().filter((r) => r.endToEndId === charge.endToEndId);
    expect(bank().map((r) => r.amountCents)).toEqual([3000]);
    // The same id with another amount is a mistake, not a new refund.
    await expect(part(charge.id, 'retPix1', 2000)).rejects.toMatchObject({
      statusCode: 409,
      code: 'devolucao_repetida',
    });

    await expect(part(charge.id, 'retPix2', 7001)).rejects.toMatchObject({
      statusCode: 409,
      code: 'devolucao_acima_do_pago',
      detail: expect.stringMatching(/R\$\s70,00/),
    });
    const rest = await part(charge.id, 'retPix2', 7000);
    await t.app.payments.sendRefund(rest!);
    expect(bank().map((r) => r.amountCents)).toEqual([3000, 7000]);
    expect((await rowsOf(charge.id)).map((r) => [r.amountCents, r.status])).toEqual([
      [3000, 'DEVOLVIDO'],
      [7000, 'DEVOLVIDO'],
    ]);
    expect(await chargeByTxid(t.app, charge.txid)).toMatchObject({ status: 'DEVOLVIDA' });
    expect(await t.app.payments.refundable(charge.id)).toEqual({ paidCents: 10_000, refundedCents: 10_000 });
    await expect(part(charge.id, 'retPix3', 1)).rejects.toMatchObject({ code: 'pagamento_nao_confirmado' });
  });

  it('a staff cancellation after a part returns only what is left', async () => {
    const charge = await paidPix(3);
    await t.app.payments.sendRefund((await part(charge.id, 'retCancel1', 5000))!);
    const rest = await t.app.db.transaction((tx) =>
      t.app.payments.returnPaid(tx, charge.id, 'Pedido cancelado.'),
    );
    expect(rest!.amountCents).toBe(10_000);
    await t.app.payments.sendRefund(rest!);
    expect((await rowsOf(charge.id)).reduce((s, r) => s + r.amountCents, 0)).toBe(15_000);
  });

  it('card: parts go to the card network, the charge turns refunded at the provider only with the last', async () => {
    const token = await cardToken(t.app, {
      number: '4111111111111111',
      holderName: 'MARIA DA SILVA',
      holderDocument: CPF,
    });
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/pagar-cartao/',
      headers: { ...buyer.headers, 'idempotency-key': 'cartao-parcial-1' },
      payload: {
        birth: '1990-05-17',
        payment_token: token,
        name: 'Maria da Silva',
        cpf: CPF,
        phone: '85999999999',
        email: 'maria@example.com',
        total: 100,
        installments: 1,
        finalidade: 'pedido',
        pedido: { quantity: 2 },
      },
    });
    expect(paid.statusCode).toBe(200);
    const charge = (await chargeByTxid(t.app, paid.json().txid))!;
    await t.app.payments.sendRefund((await part(charge.id, 'retCard1', 2500))!);
    const sim = t.app.providers.payments.simulator!;
    const onCard = () => sim.refunds().filter((r) => r.cardChargeId === charge.providerChargeId);
    expect(onCard().map((r) => r.amountCents)).toEqual([2500]);
    expect((await t.app.providers.payments.getCardCharge(charge.providerChargeId!)).status).toBe('paid');

    // Sent twice (a retry, a second worker): the refund is taken once, never sent again.
    const second = (await part(charge.id, 'retCard2', 7500))!;
    await Promise.all([t.app.payments.sendRefund(second), t.app.payments.sendRefund(second)]);
    expect(onCard().map((r) => r.amountCents)).toEqual([2500, 7500]);
    expect((await t.app.providers.payments.getCardCharge(charge.providerChargeId!)).status).toBe('refunded');
    expect((await rowsOf(charge.id)).map((r) => r.status)).toEqual(['DEVOLVIDO', 'DEVOLVIDO']);
  });
});
