import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import {
  type CardBrand,
  type CardError,
  type CardResult,
  detectCardBrand,
  isCardBrand,
  validateCardNumber,
  validateCvv,
  validateExpiry,
  validateHolderDocument,
  validateHolderName,
} from '@passada/core/card';
import { isRealIsoDate } from '@passada/core/contracts/registrations';
import { ageOn } from '@passada/core/events';
import { chargedCents, type InstallmentOption } from '@passada/core/installments';
import { formatBRL } from '@passada/core/money';
import { z } from 'zod';

export const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  elo: 'Elo',
  hipercard: 'Hipercard',
};

const REQUIRED = 'Campo obrigatório.';

export type CardField = 'number' | 'holderName' | 'month' | 'year' | 'cvv' | 'cpf' | 'birth' | 'installments';

/** Where each docs/product.md §8 error code belongs on the form. */
export const CODE_FIELD: Partial<Record<string, CardField>> = {
  bandeira_invalida: 'number',
  numero_cartao_invalido: 'number',
  cvv_cartao_invalido: 'cvv',
  validade_cartao_invalida: 'month',
  nome_titular_cartao_invalido: 'holderName',
  documento_titular_cartao_invalido: 'cpf',
};

/** The codes in plain Portuguese for the buyer; the tokenizer's own text is the fallback. */
export function cardErrorMessage(error: Pick<CardError, 'error' | 'error_description'>): string {
  switch (error.error) {
    case 'bandeira_invalida':
      return 'Bandeira não aceita. Use Visa, Mastercard, American Express, Elo ou Hipercard.';
    case 'numero_cartao_invalido':
      return 'Número do cartão inválido.';
    case 'cvv_cartao_invalido':
      return 'CVV inválido.';
    case 'validade_cartao_invalida':
      return error.error_description.includes('expirada')
        ? 'Cartão vencido.'
        : 'Validade do cartão inválida.';
    case 'nome_titular_cartao_invalido':
      return 'Informe o nome como impresso no cartão (nome e sobrenome, 3 a 50 letras).';
    case 'documento_titular_cartao_invalido':
      return 'CPF do titular inválido.';
    case 'valor_invalido':
      return 'O valor mínimo para pagamento com cartão é R$ 3,00.';
    default:
      return error.error_description || 'Não foi possível validar o cartão.';
  }
}

/** The brand the number shows, or null while unknown or not accepted. */
export function cardBrandOf(number: string): CardBrand | null {
  const detected = detectCardBrand(number);
  return isCardBrand(detected) ? detected : null;
}

/** Ages the card provider takes for a holder. */
export const HOLDER_MIN_AGE = 16;
export const HOLDER_MAX_AGE = 120;

/** "05/12/1990" → "1990-12-05"; null unless it is a real calendar day. */
export function brDateToIso(value: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  return isRealIsoDate(iso) ? iso : null;
}

/** Adds the slashes of dd/mm/aaaa as the digits are typed. */
export function maskBrDate(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}

function birthProblem(value: string, now: Date): string | null {
  const iso = brDateToIso(value);
  if (!iso) return 'Informe uma data válida no formato dd/mm/aaaa.';
  const age = ageOn(iso, dateInTimeZone(now, STORE_TIME_ZONE));
  if (age < HOLDER_MIN_AGE) return `O titular do cartão deve ter ao menos ${HOLDER_MIN_AGE} anos.`;
  if (age > HOLDER_MAX_AGE) return 'Informe uma data de nascimento válida.';
  return null;
}

const badBrand: CardError = { code: 400, error: 'bandeira_invalida', error_description: '' };

/**
 * The card form checked with the tokenizer's own rules (core card.ts), so every error shows at its
 * field before any call. Every rule runs, so the buyer sees all problems at once.
 */
export const cardFormSchema = z
  .object({
    number: z.string(),
    holderName: z.string(),
    month: z.string(),
    year: z.string(),
    cvv: z.string(),
    cpf: z.string(),
    /** The holder's, dd/mm/aaaa. */
    birth: z.string(),
    installments: z.string(),
  })
  .superRefine((values, ctx) => {
    const problems = new Map<CardField, string>();
    const put = (field: CardField, result: CardResult<unknown>) => {
      if (!result.ok && !problems.has(field)) problems.set(field, cardErrorMessage(result.error));
    };
    const required = (field: CardField) => {
      if (values[field].trim()) return true;
      problems.set(field, REQUIRED);
      return false;
    };
    const detected = detectCardBrand(values.number);
    const brand = isCardBrand(detected) ? detected : undefined;
    if (required('number')) {
      if (detected === 'unsupported') put('number', { ok: false, error: badBrand });
      else put('number', validateCardNumber(values.number, brand));
    }
    if (required('holderName')) put('holderName', validateHolderName(values.holderName));
    const month = required('month');
    const year = required('year');
    if (month && year) put('month', validateExpiry(values.month, values.year, new Date()));
    if (required('cvv')) put('cvv', validateCvv(values.cvv, brand));
    if (required('cpf')) put('cpf', validateHolderDocument(values.cpf));
    if (required('birth')) {
      const problem = birthProblem(values.birth, new Date());
      if (problem) problems.set('birth', problem);
    }
    if (!values.installments)
      problems.set('installments', brand ? 'Escolha o número de parcelas.' : REQUIRED);
    for (const [field, message] of problems) ctx.addIssue({ code: 'custom', path: [field], message });
  });

export type CardFormValues = z.infer<typeof cardFormSchema>;

/** Decreto 5.903: number of instalments, each value, the interest and the total, in one line. */
export function installmentLabel(option: InstallmentOption, totalCents: number): string {
  const each = `${option.installment}× de ${formatBRL(option.value)}`;
  const total = formatBRL(chargedCents(totalCents, option));
  if (!option.has_interest) return `${each} sem juros (total ${total})`;
  const rate = (option.interest_percentage / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2 });
  return `${each} com juros de ${rate}% a.m. (total ${total})`;
}
