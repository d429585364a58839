import {
  type CardBrand,
  type CardError,
  type CardResult,
  detectCardBrand,
  isCardBrand,
  MIN_CARD_TOTAL_CENTS,
  validateCardNumber,
  validateCvv,
  validateExpiry,
  validateHolderDocument,
  validateHolderName,
} from '@passada/core/card';
import type { PublicConfig } from '@passada/core/contracts/config';
import type {
  CardPayResponse,
  CardTokenResponse,
  InstallmentsResponse,
} from '@passada/core/contracts/payments';
import { chargedCents, type InstallmentOption } from '@passada/core/installments';
import { formatBRL } from '@passada/core/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiRequestError, apiFetch } from '../../lib/api.ts';
import { paymentsConfig } from './payments-api.ts';

type Field = 'number' | 'holderName' | 'month' | 'year' | 'cvv' | 'cpf' | 'installments';
type FieldErrors = Partial<Record<Field, string>>;

const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  elo: 'Elo',
  hipercard: 'Hipercard',
};

const REQUIRED = 'Campo obrigatório.';

/** Where each spec §8 error code belongs on the form. */
const CODE_FIELD: Record<string, Field> = {
  bandeira_invalida: 'number',
  numero_cartao_invalido: 'number',
  cvv_cartao_invalido: 'cvv',
  validade_cartao_invalida: 'month',
  nome_titular_cartao_invalido: 'holderName',
  documento_titular_cartao_invalido: 'cpf',
};

/** The spec's codes in plain Portuguese for the buyer; the tokenizer's own text is the fallback. */
function messageFor(error: Pick<CardError, 'error' | 'error_description'>): string {
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

export interface CardFormValues {
  number: string;
  holderName: string;
  month: string;
  year: string;
  cvv: string;
  cpf: string;
}

/** Checks every field with the tokenizer's own rules (core card.ts), so errors show before any call. */
export function validateCardForm(values: CardFormValues, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  const put = (field: Field, result: CardResult<unknown>) => {
    if (!result.ok && !errors[field]) errors[field] = messageFor(result.error);
  };
  const brand = detectCardBrand(values.number);
  if (!values.number.trim()) errors.number = REQUIRED;
  else if (brand === 'unsupported') put('number', { ok: false, error: badBrand });
  else put('number', validateCardNumber(values.number, isCardBrand(brand) ? brand : undefined));
  if (!values.holderName.trim()) errors.holderName = REQUIRED;
  else put('holderName', validateHolderName(values.holderName));
  if (!values.month) errors.month = REQUIRED;
  if (!values.year) errors.year = REQUIRED;
  if (values.month && values.year) put('month', validateExpiry(values.month, values.year, now));
  if (!values.cvv.trim()) errors.cvv = REQUIRED;
  else put('cvv', validateCvv(values.cvv, isCardBrand(brand) ? brand : undefined));
  if (!values.cpf.trim()) errors.cpf = REQUIRED;
  else put('cpf', validateHolderDocument(values.cpf));
  return errors;
}

const badBrand: CardError = { code: 400, error: 'bandeira_invalida', error_description: '' };

function isCardError(value: unknown): value is CardError {
  return typeof value === 'object' && value !== null && 'error' in value && 'error_description' in value;
}

/** Decreto 5.903: number of instalments, each value, the interest and the total, in one line. */
export function installmentLabel(option: InstallmentOption, totalCents: number): string {
  const each = `${option.installment}× de ${formatBRL(option.value)}`;
  const total = formatBRL(chargedCents(totalCents, option));
  if (!option.has_interest) return `${each} sem juros (total ${total})`;
  const rate = (option.interest_percentage / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2 });
  return `${each} com juros de ${rate}% a.m. (total ${total})`;
}

async function tokenize(
  config: PublicConfig['pagamentos'],
  card: Record<string, unknown>,
): Promise<CardTokenResponse> {
  if (config.provedor === 'simulado') {
    return apiFetch<CardTokenResponse>('/api/simulador/cartao/token', {
      method: 'POST',
      body: card,
      auth: false,
    });
  }
  const { default: EfiPay } = await import('payment-token-efi');
  const result = await EfiPay.CreditCard.setAccount(config.conta ?? '')
    .setEnvironment(config.ambiente)
    .setCreditCardData(card as unknown as Parameters<typeof EfiPay.CreditCard.setCreditCardData>[0])
    .getPaymentToken();
  if ('payment_token' in result) return result;
  throw result;
}

export interface CardFormProps {
  finalidade: 'pedido' | 'inscricao';
  draft: unknown;
  /** Before interest. */
  totalCents: number;
  produto: string;
  payer: { email: string; phone?: string };
  onPaid(result: {
    chargeId: string;
    fulfilledId?: number;
    totalCents: number;
    installments: number;
    precoJuros: number;
  }): void;
  onInstallmentChange?(
    option: { installment: number; value: number; has_interest: boolean; interest_percentage: number } | null,
  ): void;
  onProcessingChange?(processing: boolean): void;
}

const inputClass =
  'w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-700 aria-invalid:border-red-600 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100';

/** Credit card payment: the card is tokenized in the browser, the server only ever sees the token. */
export function CardForm({
  finalidade,
  draft,
  totalCents,
  produto,
  payer,
  onPaid,
  onInstallmentChange,
  onProcessingChange,
}: CardFormProps) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<CardFormValues>({
    number: '',
    holderName: '',
    month: '',
    year: '',
    cvv: '',
    cpf: '',
  });
  const [installment, setInstallment] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const ids = useId();

  const detected = detectCardBrand(values.number);
  const brand = isCardBrand(detected) ? detected : null;
  const installmentsQuery = useQuery({
    queryKey: ['parcelas', brand, totalCents],
    queryFn: () =>
      apiFetch<InstallmentsResponse>(`/api/parcelas/?brand=${brand}&total=${totalCents}`, { auth: false }),
    enabled: brand !== null && totalCents >= MIN_CARD_TOTAL_CENTS,
    staleTime: 5 * 60_000,
  });
  const options = brand ? (installmentsQuery.data?.installments ?? []) : [];
  const chosen = options.find((o) => String(o.installment) === installment) ?? null;

  const reported = useRef<string | null>(null);
  const onInstallmentChangeRef = useRef(onInstallmentChange);
  onInstallmentChangeRef.current = onInstallmentChange;
  useEffect(() => {
    const key = chosen ? `${chosen.installment}-${chosen.value}` : null;
    if (key === reported.current) return;
    reported.current = key;
    onInstallmentChangeRef.current?.(
      chosen
        ? {
            installment: chosen.installment,
            value: chosen.value,
            has_interest: chosen.has_interest,
            interest_percentage: chosen.interest_percentage,
          }
        : null,
    );
  }, [chosen]);

  const set = (field: keyof CardFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const busy = (next: boolean) => {
    setProcessing(next);
    onProcessingChange?.(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (processing) return;
    setFailure(null);
    const found = validateCardForm(values, new Date());
    if (!chosen) found.installments = brand ? 'Escolha o número de parcelas.' : REQUIRED;
    setErrors(found);
    if (Object.values(found).some(Boolean) || !brand || !chosen) return;

    busy(true);
    try {
      const config = await paymentsConfig(queryClient);
      let token: CardTokenResponse;
      try {
        token = await tokenize(config, {
          brand,
          number: values.number.replace(/\s+/g, ''),
          cvv: values.cvv.trim(),
          expirationMonth: values.month,
          expirationYear: values.year,
          holderName: values.holderName.trim(),
          holderDocument: values.cpf.replace(/\D/g, ''),
          reuse: true,
        });
      } catch (err) {
        const cardError = err instanceof ApiRequestError ? err.body : err;
        if (isCardError(cardError)) {
          const field = CODE_FIELD[cardError.error];
          const message = messageFor(cardError);
          if (field) setErrors((e) => ({ ...e, [field]: message }));
          else setFailure(`Erro ao gerar token ou pagar. ${message}`);
          return;
        }
        throw err;
      }
      const paid = await apiFetch<CardPayResponse>('/api/pagar-cartao/', {
        method: 'POST',
        body: {
          payment_token: token.payment_token,
          name: values.holderName.trim(),
          cpf: values.cpf.replace(/\D/g, ''),
          ...(payer.phone ? { phone: payer.phone } : {}),
          email: payer.email,
          produto,
          total: totalCents / 100,
          installment: chosen.value,
          installments: chosen.installment,
          finalidade,
          [finalidade]: draft,
        },
      });
      const data = paid.detalhes.data;
      if (data.status !== 'approved') {
        setFailure('Erro ao gerar token ou pagar. Pagamento recusado pela operadora do cartão.');
        return;
      }
      const fulfilledId = paid.pedido_id ?? paid.inscricao_id;
      onPaid({
        chargeId: data.charge_id,
        ...(fulfilledId === undefined ? {} : { fulfilledId }),
        totalCents: data.total,
        installments: data.installments,
        precoJuros: data.preco_juros,
      });
    } catch (err) {
      const detail = err instanceof ApiRequestError ? err.body?.detail : null;
      setFailure(detail ? `Erro ao gerar token ou pagar. ${detail}` : 'Erro ao gerar token ou pagar');
    } finally {
      busy(false);
    }
  };

  const now = new Date();
  const years = Array.from({ length: 12 }, (_, i) => String(now.getFullYear() + i));
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
  const fieldId = (f: Field) => `${ids}-${f}`;
  const describedBy = (f: Field) => (errors[f] ? `${fieldId(f)}-erro` : undefined);
  const errorLine = (f: Field) =>
    errors[f] ? (
      <p id={`${fieldId(f)}-erro`} className="text-sm text-red-700 dark:text-red-400">
        {errors[f]}
      </p>
    ) : null;
  const label = (f: Field, text: string) => (
    <label htmlFor={fieldId(f)} className="text-sm font-medium">
      {text}
    </label>
  );

  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label="Pagamento com cartão"
      className="grid gap-4"
    >
      <div className="flex flex-col gap-1">
        {label('number', 'Número do cartão')}
        <input
          id={fieldId('number')}
          inputMode="numeric"
          autoComplete="cc-number"
          required
          maxLength={23}
          value={values.number}
          onChange={(e) => set('number')(e.target.value.replace(/[^\d ]/g, ''))}
          aria-invalid={errors.number ? true : undefined}
          aria-describedby={describedBy('number')}
          className={inputClass}
        />
        {errorLine('number')}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${ids}-brand`} className="text-sm font-medium">
          Bandeira
        </label>
        <input
          id={`${ids}-brand`}
          readOnly
          value={brand ? BRAND_NAMES[brand] : detected === 'unsupported' ? 'Não aceita' : ''}
          className={`${inputClass} bg-stone-100 dark:bg-stone-800`}
        />
      </div>
      <div className="flex flex-col gap-1">
        {label('holderName', 'Nome impresso no cartão')}
        <input
          id={fieldId('holderName')}
          autoComplete="cc-name"
          required
          maxLength={50}
          value={values.holderName}
          onChange={(e) => set('holderName')(e.target.value)}
          aria-invalid={errors.holderName ? true : undefined}
          aria-describedby={describedBy('holderName')}
          className={inputClass}
        />
        {errorLine('holderName')}
      </div>
      <div className="grid grid-cols-3 gap-3">
        <div className="flex flex-col gap-1">
          {label('month', 'Mês')}
          <select
            id={fieldId('month')}
            autoComplete="cc-exp-month"
            required
            value={values.month}
            onChange={(e) => set('month')(e.target.value)}
            aria-invalid={errors.month ? true : undefined}
            aria-describedby={describedBy('month')}
            className={inputClass}
          >
            <option value="">MM</option>
            {months.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          {label('year', 'Ano')}
          <select
            id={fieldId('year')}
            autoComplete="cc-exp-year"
            required
            value={values.year}
            onChange={(e) => set('year')(e.target.value)}
            aria-invalid={errors.year ? true : undefined}
            aria-describedby={describedBy('year')}
            className={inputClass}
          >
            <option value="">AAAA</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          {label('cvv', 'CVV')}
          <input
            id={fieldId('cvv')}
            inputMode="numeric"
            autoComplete="cc-csc"
            required
            maxLength={4}
            value={values.cvv}
            onChange={(e) => set('cvv')(e.target.value.replace(/\D/g, ''))}
            aria-invalid={errors.cvv ? true : undefined}
            aria-describedby={describedBy('cvv')}
            className={inputClass}
          />
        </div>
      </div>
      {errorLine('month')}
      {errorLine('year')}
      {errorLine('cvv')}
      <div className="flex flex-col gap-1">
        {label('cpf', 'CPF do titular')}
        <input
          id={fieldId('cpf')}
          inputMode="numeric"
          required
          maxLength={14}
          value={values.cpf}
          onChange={(e) => set('cpf')(e.target.value.replace(/[^\d.-]/g, ''))}
          aria-invalid={errors.cpf ? true : undefined}
          aria-describedby={describedBy('cpf')}
          className={inputClass}
        />
        {errorLine('cpf')}
      </div>
      <div className="flex flex-col gap-1">
        {label('installments', 'Parcelas')}
        <select
          id={fieldId('installments')}
          required
          disabled={options.length === 0}
          value={chosen ? installment : ''}
          onChange={(e) => {
            setInstallment(e.target.value);
            setErrors((er) => ({ ...er, installments: undefined }));
          }}
          aria-invalid={errors.installments ? true : undefined}
          aria-describedby={describedBy('installments')}
          className={inputClass}
        >
          <option value="">
            {brand
              ? installmentsQuery.isFetching
                ? 'Carregando parcelas...'
                : 'Escolha as parcelas'
              : 'Digite o número do cartão'}
          </option>
          {options.map((o) => (
            <option key={o.installment} value={String(o.installment)}>
              {installmentLabel(o, totalCents)}
            </option>
          ))}
        </select>
        {errorLine('installments')}
        {installmentsQuery.isError ? (
          <p className="text-sm text-red-700 dark:text-red-400">Não foi possível carregar as parcelas.</p>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className="font-medium text-red-700 dark:text-red-400">
          {failure}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={processing}
        className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
      >
        {processing ? 'Processando...' : 'Pagar com cartão'}
      </button>
    </form>
  );
}
