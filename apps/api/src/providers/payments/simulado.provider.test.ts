import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.ts';
import { PaymentProviderError, PaymentProviderTimeout, type PaymentsProvider } from './payments.provider.ts';
import {
  createSimulatedProvider,
  SIMULATED_APPROVED_CARDS,
  SIMULATED_PENDING_CARD,
  SIMULATED_REFUSED_CARDS,
  SIMULATED_TIMEOUT_CARD,
} from './simulado.provider.ts';

const now = new Date('2026-11-23T12:00:00Z');
const TXID = 'simulado0000000000000000000001';

function setup() {
  const provider = createSimulatedProvider(loadEnv({ NODE_ENV: 'test' }));
  const simulator = provider.simulator;
  if (!simulator) throw new Error('o provedor simulado expõe o simulador');
  return { provider, simulator };
}

async function tokenFor(provider: PaymentsProvider, number: string) {
  const result = provider.simulator?.tokenizeCard(
    {
      brand: number.startsWith('4') ? 'visa' : 'mastercard',
      number,
      cvv: '123',
      expirationMonth: '12',
      expirationYear: '2030',
      reuse: false,
    },
    now,
  );
  if (!result?.ok) throw new Error('cartão de teste recusado pelo tokenizador');
  return result.value.payment_token;
}

const charge = (provider: PaymentsProvider, paymentToken: string, customId?: string) =>
  provider.chargeCard({
    paymentToken,
    installments: 1,
    amountCents: 10000,
    itemName: 'Camiseta',
    customer: { name: 'Maria da Silva', cpf: '40364478829', email: 'maria@example.com' },
    ...(customId ? { customId } : {}),
  });

describe('simulated Pix', () => {
  it('answers the expiry of the charge it created, and refuses a late payment unless told it raced the expiry', async () => {
    const { provider, simulator } = setup();
    const created = await provider.createPix({
      txid: TXID,
      amountCents: 5000,
      expiresInSeconds: 900,
      createdAt: now,
      description: 'Pedido',
    });
    expect(created.expiresAt).toEqual(new Date(now.getTime() + 900_000));
    expect(await provider.getPix(TXID)).toMatchObject({ status: 'ATIVA', expiresAt: created.expiresAt });

    const late = new Date(now.getTime() + 901_000);
    expect(simulator.payPix(TXID, late)).toBeNull();
    const paid = simulator.payPix(TXID, late, { afterExpiry: true });
    expect(paid?.endToEndId).toMatch(/^E[0-9A-F]{31}$/);
    expect(await provider.getPix(TXID)).toMatchObject({
      status: 'CONCLUIDA',
      endToEndId: paid?.endToEndId,
      paidCents: 5000,
      paidAt: late,
    });
  });

  it('a cancelled charge cannot be paid; a paid one is not cancelled', async () => {
    const { provider, simulator } = setup();
    const input = { amountCents: 5000, expiresInSeconds: 900, createdAt: now, description: 'x' };
    await provider.createPix({ txid: TXID, ...input });
    expect((await provider.cancelPix(TXID)).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(simulator.payPix(TXID, now)).toBeNull();

    const other = `${TXID.slice(0, -1)}2`;
    await provider.createPix({ txid: other, ...input });
    simulator.payPix(other, now);
    expect((await provider.cancelPix(other)).status).toBe('CONCLUIDA');
  });

  it('records refunds once per refund id and never more than was paid', async () => {
    const { provider, simulator } = setup();
    await provider.createPix({
      txid: TXID,
      amountCents: 5000,
      expiresInSeconds: 900,
      createdAt: now,
      description: 'x',
    });
    const { endToEndId } = simulator.payPix(TXID, now) ?? { endToEndId: '' };
    const refund = { endToEndId, refundId: 'dev1', amountCents: 3000 };
    expect((await provider.refundPix(refund)).status).toBe('DEVOLVIDO');
    await provider.refundPix(refund);
    expect(simulator.refunds()).toEqual([refund]);
    await expect(provider.refundPix({ ...refund, refundId: 'dev2' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('simulated cards', () => {
  it('approved cards end paid; refused ones are unpaid with a reason', async () => {
    const { provider } = setup();
    const approved = await charge(provider, await tokenFor(provider, SIMULATED_APPROVED_CARDS.visa));
    expect(approved.status).toBe('approved');
    expect((await provider.getCardCharge(approved.chargeId)).status).toBe('paid');
    const refused = await charge(provider, await tokenFor(provider, SIMULATED_REFUSED_CARDS.mastercard));
    expect(refused).toMatchObject({ status: 'unpaid', refusalReason: expect.any(String) });
  });

  it('a pending card waits until the network settles it, and the notification tells the last status', async () => {
    const { provider, simulator } = setup();
    const pending = await charge(provider, await tokenFor(provider, SIMULATED_PENDING_CARD), 'cobranca-1');
    expect(pending.status).toBe('waiting');
    const { notificationToken } = simulator.settleCard(pending.chargeId, 'unpaid');
    expect(await provider.cardNotification(notificationToken)).toMatchObject({
      chargeId: pending.chargeId,
      customId: 'cobranca-1',
      status: 'unpaid',
    });
    expect(() => simulator.settleCard(pending.chargeId, 'paid')).toThrow(PaymentProviderError);
  });

  it('a lost answer is PaymentProviderTimeout, yet the charge exists and is found by our id; charging again by that id changes nothing', async () => {
    const { provider, simulator } = setup();
    const lost = await charge(provider, await tokenFor(provider, SIMULATED_TIMEOUT_CARD), 'cobranca-2').catch(
      (e: unknown) => e,
    );
    expect(lost).toBeInstanceOf(PaymentProviderTimeout);
    const found = simulator.findCardCharge('cobranca-2');
    expect(found).toMatchObject({ status: 'waiting' });
    const again = await charge(provider, 'token-que-nao-existe', 'cobranca-2');
    expect(again.chargeId).toBe(found?.chargeId);
    simulator.settleCard(found?.chargeId ?? '', 'paid');
    expect((await provider.getCardCharge(found?.chargeId ?? '')).status).toBe('paid');
  });
});
