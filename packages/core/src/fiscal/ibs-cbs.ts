import type { Cents } from '../money.ts';

/**
 * IBS and CBS of a nota (Reforma Tributária do Consumo, LC 214/2025; NF-e layout of NT 2025.002-RTC,
 * docs/decisions/0059): per item, the base (`vBC`) times each rate, rounded to the centavo; the totals
 * (`IBSCBSTot`) are the sums of the items' rounded values, never recomputed from the total base.
 *
 * Rates are written as the layout writes them, a percentage with four decimals (`pIBSUF` 0.1000): here an
 * integer in ten-thousandths of a percent, so 0.1 % is 1000 and 0.9 % is 9000, and every step stays in
 * integers.
 */

/** A rate in ten-thousandths of a percent: 0.9 % is 9000. */
export type RateE4 = number;

export interface IbsCbsRates {
  /** IBS of the state (`pIBSUF`). */
  ibsUf: RateE4;
  /** IBS of the city (`pIBSMun`). */
  ibsMun: RateE4;
  /** CBS (`pCBS`). */
  cbs: RateE4;
}

export interface IbsCbsItem {
  /** `vBC`: the item's value less its discount plus its share of freight, in centavos. */
  baseCents: Cents;
  ibsUfCents: Cents;
  ibsMunCents: Cents;
  /** `vIBS` = vIBSUF + vIBSMun. */
  ibsCents: Cents;
  cbsCents: Cents;
}

export interface IbsCbsTotals {
  /** `vBCIBSCBS`. */
  baseCents: Cents;
  ibsUfCents: Cents;
  ibsMunCents: Cents;
  ibsCents: Cents;
  cbsCents: Cents;
}

/**
 * `base × rate`, rounded to the centavo half away from zero (the NT validates each value against
 * `vBC × p / 100` with a tolerance of 0.01; rounding half up keeps every value within half a centavo).
 */
export function taxOf(baseCents: Cents, rate: RateE4): Cents {
  if (!Number.isInteger(baseCents) || !Number.isInteger(rate))
    throw new RangeError('Base em centavos e alíquota em décimos de milésimo de ponto percentual inteiros.');
  // base (centavos) × rate (1e-4 %) = centavos × 1e-6: divide by 1 000 000 with integer rounding.
  const product = BigInt(Math.abs(baseCents)) * BigInt(rate);
  const rounded = Number((product + 500_000n) / 1_000_000n);
  return baseCents < 0 ? -rounded : rounded;
}

/** One item's IBS and CBS. */
export function ibsCbsOfItem(baseCents: Cents, rates: IbsCbsRates): IbsCbsItem {
  const ibsUfCents = taxOf(baseCents, rates.ibsUf);
  const ibsMunCents = taxOf(baseCents, rates.ibsMun);
  return {
    baseCents,
    ibsUfCents,
    ibsMunCents,
    ibsCents: ibsUfCents + ibsMunCents,
    cbsCents: taxOf(baseCents, rates.cbs),
  };
}

/**
 * Splits `amountCents` over `weights` in proportion, the remainder centavos going to the largest
 * weights first, so the shares always add up to the amount (freight and discount spread over the items:
 * the NF-e's `vFrete`/`vDesc` of the items add up to the totals').
 */
export function apportion(amountCents: Cents, weights: readonly number[]): Cents[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (amountCents === 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amountCents * w) / total);
  const shares = exact.map((v) => Math.floor(v));
  let left = amountCents - shares.reduce((s, v) => s + v, 0);
  const order = exact
    .map((v, i) => ({ i, frac: v - Math.floor(v), w: weights[i]! }))
    .sort((a, b) => b.frac - a.frac || b.w - a.w || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/**
 * The IBS and CBS of a nota: each item's from its base (its value, less its share of the discount, plus
 * its share of the freight), and the totals as the sums of the items.
 */
export function ibsCbsOfNota(
  items: ReadonlyArray<{ totalCents: Cents }>,
  rates: IbsCbsRates,
  opts: { shippingCents?: Cents; discountCents?: Cents } = {},
): { items: Array<IbsCbsItem & { shippingCents: Cents; discountCents: Cents }>; totals: IbsCbsTotals } {
  const weights = items.map((i) => i.totalCents);
  const freight = apportion(opts.shippingCents ?? 0, weights);
  const discount = apportion(opts.discountCents ?? 0, weights);
  const lines = items.map((it, n) => ({
    ...ibsCbsOfItem(it.totalCents - discount[n]! + freight[n]!, rates),
    shippingCents: freight[n]!,
    discountCents: discount[n]!,
  }));
  const sum = (k: keyof IbsCbsTotals) => lines.reduce((s, l) => s + l[k], 0);
  return {
    items: lines,
    totals: {
      baseCents: sum('baseCents'),
      ibsUfCents: sum('ibsUfCents'),
      ibsMunCents: sum('ibsMunCents'),
      ibsCents: sum('ibsCents'),
      cbsCents: sum('cbsCents'),
    },
  };
}

/** "0.1000": a rate as the layout's `pIBSUF`/`pCBS` (3 integer and 4 decimal digits). */
export const formatRate = (rate: RateE4) => (rate / 10_000).toFixed(4);

/** "0,10 %" for people. */
export const formatRateBR = (rate: RateE4) => `${(rate / 10_000).toFixed(2).replace('.', ',')} %`;

/**
 * A percentage typed by people ("8,8", "8.8000", "0,9") as a rate in ten-thousandths of a percent, or
 * null when it is not one (at most 3 integer digits and 4 decimals, up to 100 %).
 */
export function parseRateBR(text: string): RateE4 | null {
  const m = /^(\d{1,3})(?:[.,](\d{1,4}))?$/.exec(text.trim());
  if (!m) return null;
  const rate = Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
  return rate <= 1_000_000 ? rate : null;
}
