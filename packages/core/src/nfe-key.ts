/**
 * The NF-e access key's check digit (Manual de Orientação do Contribuinte): module 11 over the 43
 * characters before it, weights 2 to 9 from the right, repeating; a remainder of 0 or 1 gives 0. A letter
 * of an alphanumeric CNPJ counts as its ASCII code minus 48 (NT 2025.001), so digits count as themselves.
 */
export function nfeKeyCheckDigit(body: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += (body.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** 44 characters (the CNPJ's 14 may be letters) whose last is the check digit of the 43 before it. */
export function isNfeAccessKey(key: string): boolean {
  return /^\d{6}[0-9A-Z]{12}\d{26}$/.test(key) && nfeKeyCheckDigit(key.slice(0, 43)) === Number(key[43]);
}
