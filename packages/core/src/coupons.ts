import { formatBRL } from './money.ts';

/**
 * The discount a coupon gives, computed the same way wherever it is shown. The server is the only one
 * that applies it (the browser shows the server's preview).
 */

/**
 * A coupon takes all (nothing to pay: confirmed without a charge, docs/decisions/0028) or leaves at
 * least R$ 1,00 to pay, never a few centavos of Pix or card: a 99% coupon leaves R$ 1,00, a 100% one
 * (or a fixed amount covering the whole purchase) leaves nothing.
 */
export const MIN_CHARGE_CENTS = 100;

export interface CouponRule {
  kind: 'percentual' | 'fixo';
  /** Whole percent, 1–100, for `percentual`. */
  percent: number | null;
  /** Centavos off, for `fixo`. */
  amountCents: number | null;
}

/**
 * Centavos off: a percentage of the eligible lines (rounded to the centavo) or a fixed amount up to
 * their value; it takes the whole charge (`totalCents`, shipping included) or leaves at least R$ 1,00.
 */
export function couponDiscountCents(rule: CouponRule, eligibleCents: number, totalCents: number): number {
  const raw =
    rule.kind === 'percentual'
      ? Math.round((eligibleCents * (rule.percent ?? 0)) / 100)
      : Math.min(rule.amountCents ?? 0, eligibleCents);
  if (raw >= totalCents) return Math.max(0, totalCents);
  return Math.max(0, Math.min(raw, totalCents - MIN_CHARGE_CENTS));
}

/** "10% nos produtos", "R$ 20,00 na inscrição": how the checkout names what the coupon gives. */
export function couponLabel(rule: CouponRule, scope: 'loja' | 'corridas'): string {
  const what = scope === 'loja' ? 'nos produtos' : 'na inscrição';
  return rule.kind === 'percentual'
    ? `${rule.percent}% ${what}`
    : `${formatBRL(rule.amountCents ?? 0)} ${what}`;
}
