import { randomBytes } from 'node:crypto';
import { type CardBrand, maskCardNumber, validateCardData } from '@passada/core/card';
import { chargedCents, listInstallments } from '@passada/core/installments';
import { buildPixPayload } from '@passada/core/pix-br-code';
import type { Env } from '../../config/env.ts';
import {
  type CardChargeResult,
  type CardStatus,
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
  type PixState,
  type RecalledCard,
  type RecalledPix,
  type SimulatedMemory,
  type SimulatedRefund,
} from './payments.provider.ts';
import { pixQrDataUri } from './pix-qr.ts';

/**
 * Test card numbers of the simulated provider (README.md beside this file): these are refused; the
 * two below stay pending or time out; any other valid card is approved.
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
/** Visa numbers whose charge stays `waiting` (until settleCard) or whose answer never arrives. */
export const SIMULATED_PENDING_CARD = '4000000000000010';
export const SIMULATED_TIMEOUT_CARD = '4000000000000028';

type CardOutcome = 'approved' | 'unpaid' | 'waiting' | 'timeout';
const outcomeOf = (number: string): CardOutcome => {
  if (number === SIMULATED_PENDING_CARD) return 'waiting';
  if (number === SIMULATED_TIMEOUT_CARD) return 'timeout';
  return refused.has(number) ? 'unpaid' : 'approved';
};
const refused = new Set(Object.values(SIMULATED_REFUSED_CARDS));
const REFUSAL_REASON = 'Transação não autorizada pelo banco emissor do cartão.';

/** Where a real PSP would serve the charge; `.invalid` so no Pix app can ever pay a simulated code. */
const SIMULATED_LOCATION = 'pix.simulado.passada.invalid/v2/cob/';

/** A Pix the simulated bank holds, keyed by its txid. */
type SimulatedCob = Omit<RecalledPix, 'txid'>;

interface SimulatedToken {
  brand: CardBrand;
  outcome: CardOutcome;
  reuse: boolean;
  used: boolean;
}

interface SimulatedCardCharge {
  chargeId: string;
  customId?: string;
  /** Every status the charge went through, oldest first, each with the token of its notification. */
  history: { status: CardStatus; token: string }[];
  installments: number;
  installmentValueCents: number;
  totalCents: number;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * Offline and deterministic (docs/architecture.md §5): real BR Codes and QR images, and a bank that pays
 * only when told to. State lives in this process; after a restart the charges it had are rebuilt from
 * the shop's database (`rememberFrom`), so open ones still expire and paid ones can still be refunded.
 */
export function createSimulatedProvider(env: Env): PaymentsProvider {
  const cobs = new Map<string, SimulatedCob>();
  const tokens = new Map<string, SimulatedToken>();
  const refunds = new Map<string, SimulatedRefund>();
  const cards = new Map<string, SimulatedCardCharge>();
  const notifications = new Map<string, SimulatedCardCharge>();
  let memory: SimulatedMemory | undefined;

  const keep = (p: RecalledPix): SimulatedCob => {
    const cob: SimulatedCob = {
      amountCents: p.amountCents,
      createdAt: p.createdAt,
      expiresAt: p.expiresAt,
      status: p.status,
      ...(p.endToEndId ? { endToEndId: p.endToEndId } : {}),
      ...(p.paidAt ? { paidAt: p.paidAt } : {}),
    };
    cobs.set(p.txid, cob);
    return cob;
  };
  /** The charge held in this process, or the one it had before a restart. */
  const recallCob = async (txid: string) => {
    const known = cobs.get(txid);
    if (known) return known;
    const recalled = await memory?.pix({ txid });
    return recalled ? keep(recalled) : undefined;
  };
  const findCob = async (txid: string) => {
    const cob = await recallCob(txid);
    if (!cob) throw new PaymentProviderError('Cobrança não encontrada.', 404, 'cobranca_nao_encontrada');
    return cob;
  };
  const recallCard = async (chargeId: string) => {
    const known = cards.get(chargeId);
    if (known) return known;
    const recalled: RecalledCard | null | undefined = await memory?.card(chargeId);
    if (!recalled) return undefined;
    const charge: SimulatedCardCharge = {
      chargeId: recalled.chargeId,
      customId: recalled.customId,
      history: [],
      installments: recalled.installments,
      installmentValueCents: recalled.installmentValueCents,
      totalCents: recalled.totalCents,
    };
    cards.set(charge.chargeId, charge);
    moveCard(charge, recalled.status);
    return charge;
  };
  const pixState = (txid: string, cob: SimulatedCob): PixState => {
    const raw = {
      txid,
      status: cob.status,
      calendario: {
        criacao: cob.createdAt.toISOString(),
        expiracao: (cob.expiresAt.getTime() - cob.createdAt.getTime()) / 1000,
      },
      valor: { original: (cob.amountCents / 100).toFixed(2) },
      ...(cob.endToEndId
        ? {
            pix: [
              {
                endToEndId: cob.endToEndId,
                txid,
                valor: (cob.amountCents / 100).toFixed(2),
                horario: cob.paidAt?.toISOString(),
              },
            ],
          }
        : {}),
    };
    return {
      txid,
      status: cob.status,
      amountCents: cob.amountCents,
      ...(cob.endToEndId ? { endToEndId: cob.endToEndId, paidCents: cob.amountCents } : {}),
      ...(cob.paidAt ? { paidAt: cob.paidAt } : {}),
      expiresAt: cob.expiresAt,
      raw,
    };
  };
  const moveCard = (charge: SimulatedCardCharge, status: CardStatus) => {
    const token = hex(20);
    charge.history.push({ status, token });
    notifications.set(token, charge);
    return token;
  };
  const current = (charge: SimulatedCardCharge): CardStatus => charge.history.at(-1)?.status ?? 'waiting';
  const cardResult = (charge: SimulatedCardCharge): CardChargeResult => {
    const status = current(charge);
    return {
      chargeId: charge.chargeId,
      ...(charge.customId ? { customId: charge.customId } : {}),
      status,
      ...(status === 'unpaid' ? { refusalReason: REFUSAL_REASON } : {}),
      installments: charge.installments,
      installmentValueCents: charge.installmentValueCents,
      totalCents: charge.totalCents,
      raw: {
        charge_id: charge.chargeId,
        custom_id: charge.customId ?? null,
        status,
        total: charge.totalCents,
        installments: charge.installments,
        installment_value: charge.installmentValueCents,
      },
    };
  };

  return {
    name: 'simulado',

    async createPix({ txid, amountCents, expiresInSeconds, createdAt }) {
      const pixCopiaECola = buildPixPayload({
        url: `${SIMULATED_LOCATION}${txid}`,
        amountCents,
        merchantName: env.STORE_NAME,
        merchantCity: env.PIX_MERCHANT_CITY,
      });
      const expiresAt = new Date(createdAt.getTime() + expiresInSeconds * 1000);
      cobs.set(txid, { amountCents, createdAt, expiresAt, status: 'ATIVA' });
      return { txid, pixCopiaECola, qrCodeDataUri: pixQrDataUri(pixCopiaECola), expiresAt };
    },

    async getPix(txid) {
      return pixState(txid, await findCob(txid));
    },

    async cancelPix(txid) {
      const cob = await findCob(txid);
      if (cob.status === 'ATIVA') cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
      return pixState(txid, cob);
    },

    async refundPix({ endToEndId, refundId, amountCents }) {
      const done = refunds.get(refundId);
      if (done) return { refundId, status: 'DEVOLVIDO', amountCents: done.amountCents, raw: { ...done } };
      let cob = [...cobs.values()].find((c) => c.endToEndId === endToEndId);
      if (!cob) {
        const recalled = await memory?.pix({ endToEndId });
        if (recalled) cob = keep(recalled);
      }
      if (!cob) throw new PaymentProviderError('Pix não encontrado.', 404, 'pix_nao_encontrado');
      const returned = [...refunds.values()]
        .filter((r) => r.endToEndId === endToEndId)
        .reduce((sum, r) => sum + r.amountCents, 0);
      if (amountCents <= 0 || returned + amountCents > cob.amountCents)
        throw new PaymentProviderError(
          'Valor da devolução maior que o disponível.',
          400,
          'valor_devolucao_invalido',
        );
      const refund = { endToEndId, refundId, amountCents };
      refunds.set(refundId, refund);
      return { refundId, status: 'DEVOLVIDO', amountCents, raw: { ...refund } };
    },

    async refundStatus({ endToEndId, refundId }) {
      const done = refunds.get(refundId);
      if (done?.endToEndId !== endToEndId)
        throw new PaymentProviderError('Devolução não encontrada.', 404, 'devolucao_nao_encontrada');
      // The simulated bank returns the money at once.
      return { refundId, status: 'DEVOLVIDO', raw: { id: refundId, status: 'DEVOLVIDO' } };
    },

    async refundCard({ providerChargeId, amountCents }) {
      const charge = await recallCard(providerChargeId);
      if (!charge) throw new PaymentProviderError('Cobrança não encontrada.', 404, 'charge_not_found');
      const from = current(charge);
      // Like Efí: a card keeps no refund id; a charge already `refunded` means the rest went back.
      if (from === 'refunded') return { status: 'DEVOLVIDO', raw: { cardChargeId: providerChargeId } };
      if (from !== 'paid' && from !== 'settled')
        throw new PaymentProviderError('Só é possível estornar uma cobrança paga.', 400, 'charge_not_paid');
      const earlier = [...refunds.values()].filter((r) => r.cardChargeId === providerChargeId);
      const left = charge.totalCents - earlier.reduce((sum, r) => sum + r.amountCents, 0);
      if (amountCents <= 0 || amountCents > left)
        throw new PaymentProviderError('Valor do estorno maior que o pago.', 400, 'valor_estorno_invalido');
      const refundId = `card${providerChargeId}n${earlier.length + 1}`;
      const refund = { endToEndId: '', refundId, amountCents, cardChargeId: providerChargeId };
      refunds.set(refundId, refund);
      // A part leaves the charge paid; the refund of what is left makes it `refunded`.
      if (amountCents === left) moveCard(charge, 'refunded');
      return { status: 'DEVOLVIDO', raw: { ...refund } };
    },

    async chargeCard({ paymentToken, installments, amountCents, customId }) {
      const known = customId ? [...cards.values()].find((c) => c.customId === customId) : undefined;
      if (known) return cardResult(known);
      const token = tokens.get(paymentToken);
      if (!token || token.used)
        throw new PaymentProviderError('Token de pagamento inválido ou já utilizado.', 400, 'payment_token');
      const option = listInstallments(amountCents).find((o) => o.installment === installments);
      if (!option)
        throw new PaymentProviderError('Parcelamento indisponível para este valor.', 400, 'installments');
      if (!token.reuse) token.used = true;
      const charge: SimulatedCardCharge = {
        chargeId: `sim${hex(12)}`,
        ...(customId ? { customId } : {}),
        history: [],
        installments,
        installmentValueCents: option.value,
        totalCents: chargedCents(amountCents, option),
      };
      cards.set(charge.chargeId, charge);
      moveCard(charge, token.outcome === 'timeout' ? 'waiting' : token.outcome);
      // The charge exists at the "bank", but its answer is lost on the way back.
      if (token.outcome === 'timeout') throw new PaymentProviderTimeout();
      const answer = cardResult(charge);
      // The network approves and the money is credited right after, as a notification tells.
      if (token.outcome === 'approved') moveCard(charge, 'paid');
      return answer;
    },

    async getCardCharge(chargeId) {
      const charge = await recallCard(chargeId);
      if (!charge) throw new PaymentProviderError('Cobrança não encontrada.', 404, 'charge_not_found');
      return cardResult(charge);
    },

    async cardNotification(notificationToken) {
      const charge = notifications.get(notificationToken);
      if (!charge)
        throw new PaymentProviderError('Notificação não encontrada.', 404, 'notification_not_found');
      const upTo = charge.history.findIndex((h) => h.token === notificationToken);
      const changes = charge.history.slice(0, upTo + 1).map((h, i, all) => ({
        type: 'charge',
        custom_id: charge.customId ?? null,
        status: { current: h.status, previous: all[i - 1]?.status ?? null },
        identifiers: { charge_id: charge.chargeId },
      }));
      return {
        chargeId: charge.chargeId,
        ...(charge.customId ? { customId: charge.customId } : {}),
        status: changes.at(-1)?.status.current ?? 'waiting',
        raw: { data: changes },
      };
    },

    async installments(_brand, totalCents) {
      return listInstallments(totalCents);
    },

    async registerPixWebhook() {},

    async getPixWebhook() {
      return null;
    },

    simulator: {
      rememberFrom(source) {
        memory = source;
      },
      payPix(txid, now, options = {}) {
        const cob = cobs.get(txid);
        // Like a bank: an expired or removed charge can no longer be paid; a paid one is not paid twice.
        if (!cob || cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || cob.status === 'REMOVIDA_PELO_PSP')
          return null;
        if (cob.expiresAt <= now && !options.afterExpiry) return null;
        if (!cob.endToEndId) {
          cob.endToEndId = `E${hex(16).toUpperCase()}`.slice(0, 32);
          cob.paidAt = now;
          cob.status = 'CONCLUIDA';
        }
        return { endToEndId: cob.endToEndId };
      },
      tokenizeCard(card, now) {
        const result = validateCardData(card, now);
        if (!result.ok) return result;
        const payment_token = hex(20);
        tokens.set(payment_token, {
          brand: result.value.brand,
          outcome: outcomeOf(result.value.number),
          reuse: result.value.reuse,
          used: false,
        });
        return { ok: true, value: { payment_token, card_mask: maskCardNumber(result.value.number) } };
      },
      refunds() {
        return [...refunds.values()].map((r) => ({ ...r }));
      },
      settleCard(chargeId, status) {
        const charge = cards.get(chargeId);
        const from = charge ? current(charge) : undefined;
        if (!charge || (from !== 'waiting' && from !== 'approved'))
          throw new PaymentProviderError('Cobrança não está pendente.', 400, 'charge_not_pending');
        return { notificationToken: moveCard(charge, status) };
      },
      findCardCharge(customId) {
        const charge = [...cards.values()].find((c) => c.customId === customId);
        return charge ? { chargeId: charge.chargeId, status: current(charge) } : undefined;
      },
    },
  };
}
