import { z } from '../zod.ts';

/**
 * The coupon code as drafts carry it (orders and registrations import it, so this file imports no
 * other contract), and the refusals the checkout shows under the coupon field.
 */

/** The refusals, word for word: the checkout shows them under the coupon field. */
export const COUPON_MESSAGES = {
  invalid: 'Cupom inválido.',
  expired: 'Cupom expirado.',
  notYet: 'Cupom ainda não está valendo.',
  usedUp: 'Cupom esgotado.',
  alreadyUsed: 'Você já usou este cupom.',
  notForEvent: 'Cupom não vale para este evento.',
  notForCategory: 'Cupom não vale para esta categoria.',
  notForProducts: 'Cupom não vale para estes produtos.',
  onlyShop: 'Cupom vale apenas para compras na loja.',
  onlyRaces: 'Cupom vale apenas para inscrições em corridas.',
  seniorIsBetter: 'Cupom não se soma à meia-entrada (60+), que já dá um desconto maior.',
  tooSmall: 'Este cupom não reduz o valor desta compra.',
} as const;

/** "Cupom válido para compras a partir de R$ 100,00." */
export const couponMinimumMessage = (formattedMinimum: string) =>
  `Cupom válido para compras a partir de ${formattedMinimum}.`;

/** Codes are compared without case: typed "bemvindo10" finds BEMVINDO10. Stored in capitals. */
export const CouponCodeSchema = z
  .string({ error: 'Digite o cupom.' })
  .trim()
  .min(1, 'Digite o cupom.')
  .max(40, COUPON_MESSAGES.invalid)
  .transform((v) => v.toUpperCase());

/** The optional `cupom` of an order or registration draft; an empty field means no coupon. */
export const DraftCouponSchema = z
  .string()
  .trim()
  .max(40, COUPON_MESSAGES.invalid)
  .transform((v) => (v ? v.toUpperCase() : undefined))
  .optional();
