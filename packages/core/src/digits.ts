/**
 * Whole numbers written as pt-BR writes them ("1.234.567"), without Intl. A page's first use of Intl
 * loads the browser's locale data: 20–60 ms of main thread on a shared desktop core, several times
 * that on a cheap phone, in one piece. The prices and counts every page shows are all whole centavos
 * and whole numbers, and their pt-BR form never changes, so they are written by hand; anything
 * else (fractions, NaN, Infinity, numbers too large to be exact) is left to Intl.
 */

/** A safe integer with pt-BR thousands dots: 1234567 → "1.234.567", -1000 → "-1.000", -0 → "-0". */
export function formatIntegerBR(value: number): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return sign + groupThousands(Math.abs(value));
}

/** A non-negative safe integer's digits with a dot every three from the right. */
export function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+$)/g, '.');
}
