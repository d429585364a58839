import { normalizePhone } from '@passada/core/phone';
import { type Json, obj, str } from './efi-client.ts';
import {
  CARD_STATUSES,
  type CardChargeInput,
  type CardChargeResult,
  type CardStatus,
  PaymentProviderError,
  type PixRefundStatus,
  type PixState,
  type ProviderPixStatus,
} from './payments.provider.ts';

/** Efí's wire: amounts in reais, dates, statuses, a Pix charge's state, a card charge and its request body. */

const EFI_PHONE = /^[1-9]{2}9?[0-9]{8}$/;
const REFUND_STATUSES: readonly PixRefundStatus[] = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'];

export const reaisString = (cents: number) => (cents / 100).toFixed(2);
export const centsFrom = (reais: unknown) => Math.round(Number(reais) * 100);
export const dateFrom = (v: unknown): Date | undefined => {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isNaN(t) ? undefined : new Date(t);
};
/** A refund status Efí may add later is taken as still under way: only DEVOLVIDO means the money is back. */
export const refundStatusOf = (v: unknown): PixRefundStatus =>
  REFUND_STATUSES.find((s) => s === v) ?? 'EM_PROCESSAMENTO';
/** Statuses Efí may add later are taken as pending: only `paid`/`settled` ever count as money in. */
export const cardStatus = (v: unknown): CardStatus => CARD_STATUSES.find((s) => s === v) ?? 'waiting';

export function pixState(txid: string, cob: Json): PixState {
  const paid = Array.isArray(cob.pix) ? obj(cob.pix[0]) : {};
  const endToEndId = str(paid.endToEndId);
  const paidAt = dateFrom(paid.horario);
  const calendario = obj(cob.calendario);
  const createdAt = dateFrom(calendario.criacao);
  const expiracao = Number(calendario.expiracao);
  if (!createdAt || !Number.isFinite(expiracao))
    throw new PaymentProviderError('A Efí não devolveu o calendário da cobrança.', 502, 'resposta_invalida');
  return {
    txid,
    status: (str(cob.status) ?? 'ATIVA') as ProviderPixStatus,
    amountCents: centsFrom(obj(cob.valor).original),
    ...(endToEndId ? { endToEndId, paidCents: centsFrom(paid.valor) } : {}),
    ...(paidAt && endToEndId ? { paidAt } : {}),
    expiresAt: new Date(createdAt.getTime() + expiracao * 1000),
    raw: cob,
  };
}

export function cardCharge(data: Json, fallbackInstallments?: number): CardChargeResult {
  const card = obj(obj(data.payment).credit_card);
  const installments = Number(data.installments ?? card.installments ?? fallbackInstallments ?? 1);
  const installmentValue = Number(data.installment_value ?? card.installment_value ?? 0);
  const reason = str(obj(data.refusal).reason);
  const customId = str(data.custom_id);
  return {
    chargeId: String(data.charge_id ?? ''),
    ...(customId ? { customId } : {}),
    status: cardStatus(str(data.status) ?? obj(data.status).current),
    ...(reason ? { refusalReason: reason } : {}),
    installments,
    installmentValueCents: installmentValue,
    totalCents: Number(data.total ?? installmentValue * installments),
    raw: data,
  };
}

/** Checks what Efí would refuse anyway, so a missing field is a clear message and not a lost request. */
export function oneStepBody(input: CardChargeInput): Json {
  const { customer, billingAddress } = input;
  if (!billingAddress)
    throw new PaymentProviderError(
      'Endereço de cobrança obrigatório para pagar com cartão.',
      400,
      'billing_address',
    );
  if (!customer.birth || !/^\d{4}-\d{2}-\d{2}$/.test(customer.birth))
    throw new PaymentProviderError(
      'Data de nascimento do titular obrigatória para pagar com cartão.',
      400,
      'customer_birth',
    );
  const phone = customer.phone ? normalizePhone(customer.phone) : '';
  return {
    items: [{ name: input.itemName.slice(0, 255), value: input.amountCents, amount: 1 }],
    payment: {
      credit_card: {
        customer: {
          name: customer.name,
          cpf: customer.cpf.replace(/\D/g, ''),
          email: customer.email,
          // Optional at Efí, but refused when out of its pattern: a doubtful number is left out.
          ...(EFI_PHONE.test(phone) ? { phone_number: phone } : {}),
          birth: customer.birth,
        },
        installments: input.installments,
        billing_address: {
          ...billingAddress,
          zipcode: billingAddress.zipcode.replace(/\D/g, ''),
        },
        payment_token: input.paymentToken,
      },
    },
    ...(input.customId || input.notificationUrl
      ? {
          metadata: {
            ...(input.customId ? { custom_id: input.customId } : {}),
            ...(input.notificationUrl ? { notification_url: input.notificationUrl } : {}),
          },
        }
      : {}),
  };
}
