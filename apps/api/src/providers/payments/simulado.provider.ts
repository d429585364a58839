import { randomBytes } from 'node:crypto';
import { type CardBrand, maskCardNumber, validateCardData } from '@passada/core/card';
import { chargedCents, listInstallments } from '@passada/core/installments';
import { buildPixPayload } from '@passada/core/pix-br-code';
import QRCode from 'qrcode';
import type { Env } from '../../config/env.ts';
import { PaymentProviderError, type PaymentsProvider, type PixState } from './payments.provider.ts';

/**
 * Test card numbers of the simulated provider (README.md beside this file): these are refused; any
 * other valid card is approved.
 */
export const SIMULATED_REFUSED_CARDS: Record<CardBrand, string> = {
  visa: '4000000000000002',
  mastercard: '5105105105105100',
  amex: '371449635398431',
  elo: '5067000000000009',
  hipercard: '6062820000000003',
};
export const SIMULATED_APPROVED_CARDS: Record<CardBrand, string> = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  elo: '6362970000457013',
  hipercard: '6062825624254001',
};
const refused = new Set(Object.values(SIMULATED_REFUSED_CARDS));

/** Where a real PSP would serve the charge; `.invalid` so no Pix app can ever pay a simulated code. */
const SIMULATED_LOCATION = 'pix.simulado.passada.invalid/v2/cob/';

export function pixQrDataUri(payload: string): Promise<string> {
  return QRCode.toDataURL(payload, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

interface SimulatedCob {
  amountCents: number;
  expiresAt: number;
  endToEndId?: string;
}

interface SimulatedToken {
  brand: CardBrand;
  refused: boolean;
  reuse: boolean;
  used: boolean;
}

/**
 * Offline and deterministic (docs/architecture.md §5): real BR Codes and QR images, and a bank that pays
 * only when told to. State lives in this process, which is enough for development, demos and tests.
 */
export function createSimulatedProvider(env: Env): PaymentsProvider {
  const cobs = new Map<string, SimulatedCob>();
  const tokens = new Map<string, SimulatedToken>();

  return {
    name: 'simulado',

    async createPix({ txid, amountCents, expiresInSeconds, createdAt }) {
      const pixCopiaECola = buildPixPayload({
        url: `${SIMULATED_LOCATION}${txid}`,
        amountCents,
        merchantName: env.STORE_NAME,
        merchantCity: env.PIX_MERCHANT_CITY,
      });
      cobs.set(txid, { amountCents, expiresAt: createdAt.getTime() + expiresInSeconds * 1000 });
      return { txid, pixCopiaECola, qrCodeDataUri: await pixQrDataUri(pixCopiaECola) };
    },

    async getPix(txid): Promise<PixState> {
      const cob = cobs.get(txid);
      if (!cob) throw new PaymentProviderError('Cobrança não encontrada.', 404, 'cobranca_nao_encontrada');
      return {
        txid,
        status: cob.endToEndId ? 'CONCLUIDA' : 'ATIVA',
        amountCents: cob.amountCents,
        ...(cob.endToEndId ? { endToEndId: cob.endToEndId } : {}),
      };
    },

    async chargeCard({ paymentToken, installments, amountCents }) {
      const token = tokens.get(paymentToken);
      if (!token || token.used)
        throw new PaymentProviderError('Token de pagamento inválido ou já utilizado.', 400, 'payment_token');
      const option = listInstallments(amountCents).find((o) => o.installment === installments);
      if (!option)
        throw new PaymentProviderError('Parcelamento indisponível para este valor.', 400, 'installments');
      if (!token.reuse) token.used = true;
      return {
        chargeId: `sim${randomBytes(12).toString('hex')}`,
        status: token.refused ? 'unpaid' : 'approved',
        installments,
        installmentValueCents: option.value,
        totalCents: chargedCents(amountCents, option),
      };
    },

    async installments(_brand, totalCents) {
      return listInstallments(totalCents);
    },

    async registerPixWebhook() {},

    simulator: {
      payPix(txid, now) {
        const cob = cobs.get(txid);
        // Like a bank: an expired charge can no longer be paid; a paid one is not paid twice.
        if (!cob || cob.expiresAt <= now.getTime()) return null;
        cob.endToEndId ??= `E${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32);
        return { endToEndId: cob.endToEndId };
      },
      tokenizeCard(card, now) {
        const result = validateCardData(card, now);
        if (!result.ok) return result;
        const payment_token = randomBytes(24).toString('hex');
        tokens.set(payment_token, {
          brand: result.value.brand,
          refused: refused.has(result.value.number),
          reuse: result.value.reuse,
          used: false,
        });
        return { ok: true, value: { payment_token, card_mask: maskCardNumber(result.value.number) } };
      },
    },
  };
}
