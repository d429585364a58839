/**
 * Card rules of the spec's section 5, with the error shape and codes of section 8 (the ones the
 * `payment-token-efi` library uses). Messages never repeat the card number or the CVV.
 */
import { isValidCnpj, isValidCpf, normalizeDocument } from './documents.ts';

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'elo', 'hipercard'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export function isCardBrand(value: string): value is CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(value);
}

/** Spec section 8: `{code, error, error_description}`, code an HTTP-like status (default 400). */
export interface CardError {
  code: number;
  error: string;
  error_description: string;
}

export type CardResult<T> = { ok: true; value: T } | { ok: false; error: CardError };

const fail = (error: string, error_description: string, code = 400): { ok: false; error: CardError } => ({
  ok: false,
  error: { code, error, error_description },
});

/** Luhn (mod 10) check over a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

// Elo's 6-digit bins (docs/brazil.md); they overlap Visa's 4 and Discover's 65, so they are tried first.
const ELO_RANGES: Array<[number, number]> = [
  [401178, 401179],
  [431274, 431274],
  [438935, 438935],
  [451416, 451416],
  [457393, 457393],
  [457631, 457632],
  [504175, 504175],
  [506699, 506778],
  [509000, 509999],
  [627780, 627780],
  [636297, 636297],
  [636368, 636368],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650978],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];

/**
 * Brand from the first 6 digits: one of the supported brands, 'unsupported' for any other card
 * (Diners, Discover, JCB, …), or 'undefined' while fewer than 6 digits are known.
 */
export function detectCardBrand(number: string): CardBrand | 'unsupported' | 'undefined' {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 6) return 'undefined';
  const bin = Number(digits.slice(0, 6));
  const p4 = Number(digits.slice(0, 4));
  const p2 = Number(digits.slice(0, 2));
  if (ELO_RANGES.some(([lo, hi]) => bin >= lo && bin <= hi)) return 'elo';
  if (bin === 606282 || p4 === 3841) return 'hipercard';
  if (p2 === 34 || p2 === 37) return 'amex';
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
  if (digits.startsWith('4')) return 'visa';
  return 'unsupported';
}

/** "4111111111111111" → "411111******1111", the mask card tokenizers answer. */
export function maskCardNumber(number: string): string {
  const d = number.replace(/\D/g, '');
  return `${d.slice(0, 6)}${'*'.repeat(Math.max(0, d.length - 10))}${d.slice(-4)}`;
}

export function validateAccountId(value: unknown): CardResult<string> {
  if (typeof value !== 'string' || !value)
    return fail('identificador_invalido', 'Identificador de conta não informado ou inválido');
  if (!/^[a-zA-Z0-9]{32}$/.test(value))
    return fail('identificador_invalido', `Identificador de conta [${value}] inválido`);
  return { ok: true, value };
}

export function validateEnvironment(value: unknown): CardResult<'production' | 'sandbox'> {
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  if (v !== 'production' && v !== 'sandbox')
    return fail('ambiente_invalido', 'Escolha um ambiente de integração válido: "production" ou "sandbox"');
  return { ok: true, value: v };
}

/** Card totals are integer centavos, at least R$ 3,00. */
export const MIN_CARD_TOTAL_CENTS = 300;

export function validateCardTotal(value: unknown): CardResult<number> {
  if (typeof value !== 'number' || !Number.isInteger(value))
    return fail('valor_invalido', 'O valor total deve ser fornecido como número inteiro');
  if (value < MIN_CARD_TOTAL_CENTS)
    return fail('valor_invalido', `O valor [${value}] é inferior ao limite mínimo (R$3,00)`);
  return { ok: true, value };
}

export function validateBrand(value: unknown): CardResult<CardBrand> {
  if (typeof value !== 'string')
    return fail('bandeira_invalida', 'A bandeira do cartão deve ser fornecida como string');
  const v = value.toLowerCase();
  if (!isCardBrand(v))
    return fail('bandeira_invalida', `Escolha uma bandeira entre "${CARD_BRANDS.join('", "')}"`);
  return { ok: true, value: v };
}

export function validateCardNumber(value: unknown, brand?: CardBrand): CardResult<string> {
  if (typeof value !== 'string')
    return fail('numero_cartao_invalido', 'O número do cartão deve ser fornecido como string');
  const digits = value.replace(/\s+/g, '');
  if (!/^\d+$/.test(digits))
    return fail('numero_cartao_invalido', 'O número do cartão deve conter somente números');
  if (digits.length < 13 || digits.length > 19)
    return fail('numero_cartao_invalido', 'O número do cartão deve conter entre 13 e 19 dígitos');
  if (!luhnValid(digits)) return fail('numero_cartao_invalido', 'O número do cartão é inválido');
  if (brand && detectCardBrand(digits) !== brand)
    return fail('numero_cartao_invalido', `O número do cartão não corresponde à bandeira ${brand}`);
  return { ok: true, value: digits };
}

export function validateCvv(value: unknown, brand?: CardBrand): CardResult<string> {
  if (typeof value !== 'string')
    return fail('cvv_cartao_invalido', 'O número CVV do cartão deve ser fornecido como string');
  const digits = value.replace(/\D/g, '');
  // Amex prints a 4-digit code on the front (docs/brazil.md, brand prefixes).
  const ok = brand === 'amex' ? /^\d{4}$/.test(digits) : /^\d{3,4}$/.test(digits);
  if (!ok || digits.length !== value.trim().length)
    return fail('cvv_cartao_invalido', 'Número CVV do cartão inválido');
  return { ok: true, value: digits };
}

/** Month "01".."12" and year from the current one to 11 ahead; in the current year the month must be later. */
export function validateExpiry(
  month: unknown,
  year: unknown,
  now: Date,
): CardResult<{ month: string; year: string }> {
  if (typeof month !== 'string')
    return fail('validade_cartao_invalida', 'O mês de validade do cartão deve ser fornecido como string');
  const m = Number.parseInt(month, 10);
  if (!/^\d{2}$/.test(month) || m < 1 || m > 12)
    return fail('validade_cartao_invalida', `Mês de validade do cartão [${month}] inválido`);
  if (typeof year !== 'string')
    return fail('validade_cartao_invalida', 'O ano de validade do cartão deve ser fornecido como string');
  const currentYear = now.getFullYear();
  const y = /^\d{4}$/.test(year) ? Number(year) : Number.NaN;
  if (Number.isNaN(y) || y < currentYear || y > currentYear + 11)
    return fail('validade_cartao_invalida', `Ano de validade do cartão [${year}] inválido`);
  if (y === currentYear && m <= now.getMonth() + 1)
    return fail('validade_cartao_invalida', `Data de validade do cartão [${month}/${year}] expirada`);
  return { ok: true, value: { month, year } };
}

export function validateHolderName(value: unknown): CardResult<string> {
  if (typeof value !== 'string')
    return fail('nome_titular_cartao_invalido', 'O nome do titular do cartão deve ser fornecido como string');
  const name = value.trim();
  if (name.length < 3)
    return fail(
      'nome_titular_cartao_invalido',
      'O nome do titular do cartão deve ter no mínimo 3 caracteres',
    );
  if (name.length > 50)
    return fail(
      'nome_titular_cartao_invalido',
      'O nome do titular do cartão deve ter no máximo 50 caracteres',
    );
  if (name.split(/\s+/).length < 2)
    return fail(
      'nome_titular_cartao_invalido',
      'O nome do titular do cartão deve conter pelo menos duas palavras',
    );
  return { ok: true, value: name };
}

export function validateHolderDocument(value: unknown): CardResult<string> {
  if (typeof value !== 'string')
    return fail(
      'documento_titular_cartao_invalido',
      'O documento do titular do cartão deve ser fornecido como string',
    );
  const doc = normalizeDocument(value);
  const ok = doc.length === 11 ? isValidCpf(doc) : doc.length === 14 && isValidCnpj(doc);
  if (!ok)
    return fail('documento_titular_cartao_invalido', 'O documento do titular do cartão fornecido é inválido');
  return { ok: true, value: doc };
}

export function validateReuse(value: unknown): CardResult<boolean> {
  if (typeof value !== 'boolean') return fail('reuse_invalido', 'O parâmetro [reuse] deve ser um booleano');
  return { ok: true, value };
}

export interface CardData {
  brand: CardBrand;
  number: string;
  cvv: string;
  expirationMonth: string;
  expirationYear: string;
  holderName?: string;
  holderDocument?: string;
  reuse: boolean;
}

const REQUIRED_CARD_KEYS = ['brand', 'number', 'cvv', 'expirationMonth', 'expirationYear'] as const;

/**
 * Checks a card as the tokenizer does before encrypting it, rule by rule, and answers the first
 * failure. Holder name and document are optional (the library accepts null) but checked when given;
 * reuse defaults to true (spec section 9).
 */
export function validateCardData(input: unknown, now: Date): CardResult<CardData> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('dados_cartao_invalido', 'O parâmetro em setCreditCardData deve ser um objeto');
  const card = input as Record<string, unknown>;
  for (const key of REQUIRED_CARD_KEYS) {
    if (!(key in card)) return fail('dados_cartao_invalido', `O atributo [${key}] é obrigatório`);
  }
  const brand = validateBrand(card.brand);
  if (!brand.ok) return brand;
  const number = validateCardNumber(card.number, brand.value);
  if (!number.ok) return number;
  const cvv = validateCvv(card.cvv, brand.value);
  if (!cvv.ok) return cvv;
  const expiry = validateExpiry(card.expirationMonth, card.expirationYear, now);
  if (!expiry.ok) return expiry;
  let holderName: string | undefined;
  if (card.holderName != null) {
    const r = validateHolderName(card.holderName);
    if (!r.ok) return r;
    holderName = r.value;
  }
  let holderDocument: string | undefined;
  if (card.holderDocument != null) {
    const r = validateHolderDocument(card.holderDocument);
    if (!r.ok) return r;
    holderDocument = r.value;
  }
  const reuse = validateReuse(card.reuse ?? true);
  if (!reuse.ok) return reuse;
  return {
    ok: true,
    value: {
      brand: brand.value,
      number: number.value,
      cvv: cvv.value,
      expirationMonth: expiry.value.month,
      expirationYear: expiry.value.year,
      ...(holderName ? { holderName } : {}),
      ...(holderDocument ? { holderDocument } : {}),
      reuse: reuse.value,
    },
  };
}
