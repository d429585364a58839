/**
 * What staff type in a money or count field ("79,90", "1.234,56", "79.90", "12") as a number; empty or
 * unreadable is null, so the server names the field. Dots group thousands only when a comma marks the
 * cents, so "79.90" is R$ 79,90 and never R$ 7.990,00.
 */
export function typedNumber(v: string): number | null {
  const typed = v.trim();
  if (!typed) return null;
  const n = Number(typed.includes(',') ? typed.replace(/\./g, '').replace(',', '.') : typed);
  return Number.isNaN(n) ? null : n;
}

/** A number the form shows again as typed: empty for none. */
export const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** A stored amount as the form shows it: 89.9 → "89,90". */
export const amountText = (n: number) => n.toFixed(2).replace('.', ',');
