import { groupThousands } from './digits.ts';

/** Money is integer centavos inside the system (docs/architecture.md §2). */
export type Cents = number;

/** Only for what is not whole centavos (digits.ts says why the rest avoids Intl). */
let brl: Intl.NumberFormat | undefined;

/** Up to here `cents / 100`, the number Intl is given, still rounds back to the same centavos. */
const EXACT_CENTS = 1e13;

/**
 * "R$ 129,90" for people, exactly as `Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })`
 * writes it: a no-break space after the symbol, thousands dots, the minus before the symbol.
 */
export function formatBRL(cents: Cents): string {
  if (!Number.isInteger(cents) || Math.abs(cents) > EXACT_CENTS) {
    brl ??= new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    return brl.format(cents / 100);
  }
  const sign = cents < 0 || Object.is(cents, -0) ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}R$\u00a0${groupThousands(Math.floor(abs / 100))},${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Half of a price, for the 60+ half price (Estatuto do Idoso, Lei 10.741/2003, art. 23: "pelo menos
 * 50%" off). An odd centavo is rounded down, in the buyer's favour: R$ 0,01 becomes R$ 0,00, which is
 * a free registration (docs/decisions/0028-free-registrations.md).
 */
export function halfPriceCents(cents: Cents): Cents {
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`preço inválido: ${cents}`);
  return Math.floor(cents / 2);
}

/** Reais as a number on the wire (product prices): 12990 → 129.9. */
export function centsToReais(cents: Cents): number {
  return Math.round(cents) / 100;
}

/** 129.9 → 12990, rounding half away from zero at the centavo. */
export function reaisToCents(reais: number): Cents {
  // A relative nudge: 1.005 * 100 is 100.49999999999999 in binary floating point, and an absolute
  // Number.EPSILON is far too small to lift it at that magnitude.
  return Math.sign(reais) * Math.round(Math.abs(reais) * 100 * (1 + 4 * Number.EPSILON)) || 0;
}

/** Shipping-quote style string with a decimal comma: 2345 → "23,45". */
export function centsToCommaString(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** "23,45" or "1.234,56" → 123456 centavos; throws on anything else. */
export function commaStringToCents(value: string): Cents {
  const m = /^(-?)(\d{1,3}(?:\.\d{3})*|\d+),(\d{2})$/.exec(value.trim());
  if (!m) throw new Error(`valor monetário inválido: ${value}`);
  const cents = Number(m[2]!.replaceAll('.', '')) * 100 + Number(m[3]);
  return m[1] ? -cents : cents;
}
