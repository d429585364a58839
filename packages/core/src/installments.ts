/**
 * Card installments (docs/brazil.md, "Card payments through Efí"): the answer shape of Efí's
 * installments call, computed with the Price table (fixed instalments, compound monthly interest).
 */
import { centsToCommaString } from './money.ts';

export interface InstallmentOption {
  installment: number;
  has_interest: boolean;
  /** Each instalment, in centavos. */
  value: number;
  /** The same value with a decimal comma: "479,88". */
  currency: string;
  /** Monthly rate in basis points, as Efí answers it: 199 is 1,99% a.m.; 0 without interest. */
  interest_percentage: number;
}

export interface InstallmentPolicy {
  maxInstallments: number;
  /** Up to this many instalments carry no interest. */
  interestFreeUpTo: number;
  monthlyRateBasisPoints: number;
  /** No instalment under this (R$ 5,00); a single payment is always offered. */
  minInstallmentCents: number;
}

export const DEFAULT_INSTALLMENT_POLICY: InstallmentPolicy = {
  maxInstallments: 12,
  interestFreeUpTo: 3,
  monthlyRateBasisPoints: 199,
  minInstallmentCents: 500,
};

/** Price-table instalment: PV·i / (1 − (1+i)^−n), rounded to the centavo. */
export function priceTableInstallment(totalCents: number, count: number, monthlyRate: number): number {
  if (monthlyRate === 0) return Math.round(totalCents / count);
  return Math.round((totalCents * monthlyRate) / (1 - (1 + monthlyRate) ** -count));
}

/** Every installment option for a total in centavos. */
export function listInstallments(
  totalCents: number,
  policy: InstallmentPolicy = DEFAULT_INSTALLMENT_POLICY,
): InstallmentOption[] {
  const options: InstallmentOption[] = [];
  for (let n = 1; n <= policy.maxInstallments; n++) {
    const hasInterest = n > policy.interestFreeUpTo;
    const rate = hasInterest ? policy.monthlyRateBasisPoints / 10_000 : 0;
    const value = n === 1 ? totalCents : priceTableInstallment(totalCents, n, rate);
    if (n > 1 && value < policy.minInstallmentCents) break;
    options.push({
      installment: n,
      has_interest: hasInterest,
      value,
      currency: centsToCommaString(value),
      interest_percentage: hasInterest ? policy.monthlyRateBasisPoints : 0,
    });
  }
  return options;
}

/** Spec section 9: `preco_juros = installment × value / 100`, in reais (what the buyer pays in all). */
export function precoJuros(option: Pick<InstallmentOption, 'installment' | 'value'>): number {
  return (option.installment * option.value) / 100;
}

/**
 * What the card is charged, in centavos. Without interest it is the total itself: splitting R$ 10,00
 * in 3 shows 3 × R$ 3,33 but the buyer is never charged more or less than the price.
 */
export function chargedCents(
  totalCents: number,
  option: Pick<InstallmentOption, 'installment' | 'value' | 'has_interest'>,
): number {
  return option.has_interest ? option.installment * option.value : totalCents;
}

/** The most interest-free instalments a price allows ("3× de R$ 33,30 sem juros"), or null for one only. */
export function interestFreeOffer(
  totalCents: number,
  policy: InstallmentPolicy = DEFAULT_INSTALLMENT_POLICY,
): InstallmentOption | null {
  const free = listInstallments(totalCents, policy).filter((o) => !o.has_interest && o.installment > 1);
  return free.at(-1) ?? null;
}
