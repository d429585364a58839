/**
 * Correios object codes follow the UPU S10 standard (docs/brazil.md): two letters for the service, an
 * eight-digit serial, one check digit and the issuing country, e.g. AB123456785BR. The check digit
 * weighs the serial's digits 8, 6, 4, 2, 3, 5, 9, 7 and is 11 − (sum mod 11), written 0 for 10 and 5
 * for 11, so one mistyped digit (or two digits swapped) is caught before it reaches the customer.
 */
const WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;
const S10 = /^[A-Z]{2}(\d{8})(\d)[A-Z]{2}$/;

/** The check digit of an eight-digit serial. */
export function s10CheckDigit(serial: string): number {
  const sum = WEIGHTS.reduce((total, weight, i) => total + weight * Number(serial[i]), 0);
  const digit = 11 - (sum % 11);
  return digit === 10 ? 0 : digit === 11 ? 5 : digit;
}

/**
 * A return's posting code (docs/decisions/0040): the Correios reverse-logistics authorisation number
 * (`numero_coleta`, digits only) or an object code (S10) with a valid check digit.
 */
export function isReturnPostingCode(code: string): boolean {
  return /^\d{3,15}$/.test(code) || isS10Code(code);
}

/** True for a well-formed S10 code (upper case) whose check digit matches its serial. */
export function isS10Code(code: string): boolean {
  const match = S10.exec(code);
  return match !== null && s10CheckDigit(match[1]!) === Number(match[2]);
}
