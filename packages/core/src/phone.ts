/**
 * Brazilian phone numbers (Anatel numbering plan): a two-digit area code (DDD) then 8 digits for a
 * landline (first digit 2–5) or 9 digits for a mobile (first digit 9).
 */

/** Area codes in use (Anatel). */
const DDDS = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46,
  47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85,
  86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
]);

export function isValidDdd(ddd: string): boolean {
  return /^\d{2}$/.test(ddd) && DDDS.has(Number(ddd));
}

/**
 * DDD + number, digits only: punctuation, the country code (+55) and the trunk prefix 0 are dropped.
 * "+55 (85) 99999-9999" → "85999999999".
 */
export function normalizePhone(value: string): string {
  let d = value.replace(/\D/g, '');
  if ((d.length === 12 || d.length === 13) && d.startsWith('55')) d = d.slice(2);
  if ((d.length === 11 || d.length === 12) && d.startsWith('0')) d = d.slice(1);
  return d;
}

export function isValidPhone(value: string): boolean {
  const d = normalizePhone(value);
  if (!isValidDdd(d.slice(0, 2))) return false;
  if (d.length === 11) return d[2] === '9';
  if (d.length === 10) return /^[2-5]$/.test(d[2] ?? '');
  return false;
}

/** "85999999999" → "(85) 99999-9999"; "8532223333" → "(85) 3222-3333"; anything invalid is returned as given. */
export function formatPhone(value: string): string {
  if (!isValidPhone(value)) return value;
  const d = normalizePhone(value);
  const split = d.length - 4;
  return `(${d.slice(0, 2)}) ${d.slice(2, split)}-${d.slice(split)}`;
}
