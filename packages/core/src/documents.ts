/**
 * CPF and CNPJ check digits and formatting (docs/brazil.md, "CPF and CNPJ"). The CNPJ accepts the
 * alphanumeric form in force since July 2026: the first 12 positions may be letters A–Z.
 */

/** Keeps only what a document may contain: digits (CPF) or digits and upper-case letters (CNPJ). */
export function normalizeDocument(value: string): string {
  return value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
}

export function isValidCpf(value: string): boolean {
  const cpf = value.replace(/[.\-\s]/g, '');
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const d = ((sum * 10) % 11) % 10;
    return d === digits[length];
  };
  return check(9) && check(10);
}

// The official rule values each character as its ASCII code minus 48, so digits keep their value and A = 17.
const cnpjValue = (ch: string) => ch.charCodeAt(0) - 48;
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function cnpjDigit(base: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += cnpjValue(base[i]!) * weights[i]!;
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

export function isValidCnpj(value: string): boolean {
  const cnpj = value.replace(/[./\-\s]/g, '').toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const d1 = cnpjDigit(cnpj, CNPJ_WEIGHTS_1);
  const d2 = cnpjDigit(cnpj, CNPJ_WEIGHTS_2);
  return cnpj.endsWith(`${d1}${d2}`);
}

/** A valid CPF or CNPJ, with or without punctuation. */
export function isValidCpfOrCnpj(value: string): boolean {
  const v = normalizeDocument(value);
  return v.length === 11 ? isValidCpf(v) : v.length === 14 && isValidCnpj(v);
}

/** "40364478829" → "403.644.788-29"; anything not 11 digits is returned unchanged. */
export function formatCpf(value: string): string {
  const d = value.replace(/\D/g, '');
  return d.length === 11 ? `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}` : value;
}

/** "12ABC34501DE35" → "12.ABC.345/01DE-35"; anything not 14 characters is returned unchanged. */
export function formatCnpj(value: string): string {
  const c = normalizeDocument(value);
  return c.length === 14
    ? `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`
    : value;
}

/** CPF shown with only its middle digits, for receipts and logs of people's own data: "***.447.888-**". */
/** Only the check digits shown (`***.***.***-47`): the desk compares them with the document handed over. */
export function maskCpfButCheckDigits(value: string): string {
  const d = value.replace(/\D/g, '');
  return d.length === 11 ? `***.***.***-${d.slice(9)}` : '***';
}

export function maskCpf(value: string): string {
  const d = value.replace(/\D/g, '');
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : '***';
}
