import type { CardBrand } from '@passada/core/card';
import type { InstallmentOption } from '@passada/core/installments';
import { type EfiClient, obj, str } from './efi-client.ts';
import { cardCharge, cardStatus, oneStepBody } from './efi-wire.ts';
import { PaymentProviderError, type PaymentsProvider } from './payments.provider.ts';

/** Efí allows 15,000 installment look-ups a day; the table changes only when the account's rates do. */
const INSTALLMENTS_TTL_MS = 60 * 60 * 1000;

type CardMethods = Pick<
  PaymentsProvider,
  'refundCard' | 'chargeCard' | 'getCardCharge' | 'cardNotification' | 'installments'
>;

/** Efí's charges API: card charges, their refunds and notifications, and the installments table. */
export function efiCardMethods(client: EfiClient, clock: () => number): CardMethods {
  const { charges, call } = client;
  const installmentsCache = new Map<string, { at: number; list: Promise<InstallmentOption[]> }>();

  async function fetchInstallments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]> {
    const answer = await call(charges, 'GET', `/v1/installments?brand=${brand}&total=${totalCents}`, 'read');
    const list = obj(answer.data).installments;
    return (Array.isArray(list) ? list : []).map((raw): InstallmentOption => {
      const o = obj(raw);
      return {
        installment: Number(o.installment),
        has_interest: o.has_interest === true,
        value: Number(o.value),
        currency: str(o.currency) ?? '',
        // Basis points of a monthly rate: 199 is 1.99% a month, not 199% nor 1.99 in any other unit.
        interest_percentage: Number(o.interest_percentage ?? 0),
      };
    });
  }

  return {
    async refundCard({ providerChargeId, amountCents }) {
      const path = `/v1/charge/${encodeURIComponent(providerChargeId)}`;
      // Efí keeps no refund id for cards: a charge already `refunded` means everything went back. A part
      // (`amount` below the total, docs/decisions/0036) leaves it `paid` until the rest is returned.
      const before = cardCharge(obj((await call(charges, 'GET', path, 'read')).data));
      if (before.status === 'refunded') return { status: 'DEVOLVIDO', raw: before.raw };
      const answer = await call(charges, 'POST', `${path}/refund`, 'never', { amount: amountCents });
      return { status: 'DEVOLVIDO', raw: answer };
    },

    async chargeCard(input) {
      const answer = await call(charges, 'POST', '/v1/charge/one-step', 'never', oneStepBody(input));
      const result = cardCharge(obj(answer.data), input.installments);
      return input.customId && !result.customId ? { ...result, customId: input.customId } : result;
    },

    async getCardCharge(providerChargeId) {
      const answer = await call(charges, 'GET', `/v1/charge/${encodeURIComponent(providerChargeId)}`, 'read');
      return cardCharge(obj(answer.data));
    },

    async cardNotification(token) {
      const answer = await call(charges, 'GET', `/v1/notification/${encodeURIComponent(token)}`, 'read');
      const changes = Array.isArray(answer.data) ? answer.data.map(obj) : [];
      // Efí lists every change of the charge so far; only the last one is where it stands now.
      const last = changes.at(-1);
      const chargeId = last ? obj(last.identifiers).charge_id : undefined;
      if (!last || chargeId === undefined)
        throw new PaymentProviderError('Notificação da Efí sem cobrança.', 502, 'resposta_invalida');
      const customId = str(last.custom_id);
      return {
        chargeId: String(chargeId),
        ...(customId ? { customId } : {}),
        status: cardStatus(obj(last.status).current),
        raw: answer,
      };
    },

    async installments(brand, totalCents) {
      const key = `${brand}:${totalCents}`;
      const cached = installmentsCache.get(key);
      if (cached && clock() - cached.at < INSTALLMENTS_TTL_MS) return cached.list;
      const list = fetchInstallments(brand, totalCents);
      installmentsCache.set(key, { at: clock(), list });
      // A failure is not remembered: the next buyer asks Efí again.
      list.catch(() => installmentsCache.delete(key));
      return list;
    },
  };
}
