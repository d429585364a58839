import { zodResolver } from '@hookform/resolvers/zod';
import { detectCardBrand } from '@passada/core/card';
import { useEffect, useRef, useState } from 'react';
import { Controller, type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api.ts';
import { FormField, inputClass, SelectField } from '../form-field.tsx';
import { cardNumberMask, cpfMask, MaskedField } from '../masked-field.tsx';
import {
  BRAND_NAMES,
  brDateToIso,
  type CardFormValues,
  CODE_FIELD,
  cardBrandOf,
  cardErrorMessage,
  cardFormSchema,
  installmentLabel,
  maskBrDate,
} from './card-schema.ts';
import {
  CardTokenError,
  FINAL_STATUSES,
  isUnknownOutcome,
  type Purpose,
  useCardReview,
  useInstallments,
  usePayCard,
} from './payments-api.ts';

export { installmentLabel } from './card-schema.ts';

export interface InstallmentChoice {
  installment: number;
  value: number;
  has_interest: boolean;
  interest_percentage: number;
}

export interface CardPaid {
  chargeId: string;
  fulfilledId?: number;
  totalCents: number;
  installments: number;
  precoJuros: number;
}

export interface CardFormProps {
  finalidade: Purpose;
  draft: unknown;
  /** Before interest. */
  totalCents: number;
  produto: string;
  payer: { email: string; phone?: string };
  onPaid(result: CardPaid): void;
  onInstallmentChange?(option: InstallmentChoice | null): void;
  onPhaseChange?(phase: CardPhase): void;
}

/** Where the payment is: nothing under way, our call in flight, or the bank still reviewing it. */
export type CardPhase = 'idle' | 'processing' | 'review';

const FAILURE = 'Erro ao gerar token ou pagar';

function refusal(reason: string | null | undefined): string {
  return `${FAILURE}. ${reason ? `Pagamento recusado: ${reason}` : 'Pagamento recusado pela operadora do cartão.'}`;
}

const NOT_CREATED = 'A operadora do cartão não concluiu o pagamento e nada foi cobrado. Tente novamente.';

/** Our answer never came, or said the attempt is still being processed: the outcome is not known yet. */
const UNKNOWN =
  'Não foi possível confirmar o pagamento agora. Tente de novo em instantes: esta mesma tentativa será retomada, sem cobrança em dobro.';

/** Rewrites what the buyer types before the form sees it. */
function rewritten(field: UseFormRegisterReturn, rewrite: (value: string) => string): UseFormRegisterReturn {
  return {
    ...field,
    onChange: (event) => {
      const input: HTMLInputElement = event.target;
      input.value = rewrite(input.value);
      return field.onChange(event);
    },
  };
}

/** Drops the characters `drop` matches, as the buyer types. */
const filtered = (field: UseFormRegisterReturn, drop: RegExp) =>
  rewritten(field, (value) => value.replace(drop, ''));

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/** Credit card payment: the card is tokenized in the browser, the server only ever sees the token. */
export function CardForm({
  finalidade,
  draft,
  totalCents,
  produto,
  payer,
  onPaid,
  onInstallmentChange,
  onPhaseChange,
}: CardFormProps) {
  const {
    register,
    control,
    handleSubmit,
    watch,
    setError,
    setValue,
    clearErrors,
    formState: { errors },
  } = useForm<CardFormValues>({
    resolver: zodResolver(cardFormSchema),
    // Like the tokenizer, the form judges on submit; editing a field only clears its error.
    reValidateMode: 'onSubmit',
    defaultValues: {
      number: '',
      holderName: '',
      month: '',
      year: '',
      cvv: '',
      cpf: '',
      birth: '',
      installments: '',
    },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const payCard = usePayCard();
  const processing = payCard.isPending;
  // The Idempotency-Key of the attempt under way: kept until the bank answers for good or the card
  // details change, so resending after a lost answer cannot charge twice.
  const attemptKey = useRef<string | null>(null);
  const [review, setReview] = useState<CardPaid | null>(null);
  const reviewStatus = useCardReview(review?.chargeId ?? null);

  // Another total (an item removed, another shipping service) brings other instalments: the card
  // details typed stay, the instalments are chosen again, and the next attempt is a new one.
  const shownTotal = useRef(totalCents);
  useEffect(() => {
    if (shownTotal.current === totalCents) return;
    shownTotal.current = totalCents;
    setValue('installments', '');
    attemptKey.current = null;
  }, [totalCents, setValue]);

  const number = watch('number');
  const brand = cardBrandOf(number);
  const installments = useInstallments(brand, totalCents);
  const options = brand ? (installments.data?.installments ?? []) : [];
  const chosenValue = watch('installments');
  const chosen = options.find((o) => String(o.installment) === chosenValue) ?? null;

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

  const phase: CardPhase = review ? 'review' : processing ? 'processing' : 'idle';
  const onPhaseChangeRef = useRef(onPhaseChange);
  onPhaseChangeRef.current = onPhaseChange;
  useEffect(() => {
    onPhaseChangeRef.current?.(phase);
  }, [phase]);

  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;
  const answer = reviewStatus.data;
  useEffect(() => {
    if (!review || !FINAL_STATUSES.has(answer.status)) return;
    setReview(null);
    if (answer.status === 'CONCLUIDA') {
      const fulfilledId = answer.pedido_id ?? answer.inscricao_id;
      onPaidRef.current({ ...review, ...(fulfilledId === undefined ? {} : { fulfilledId }) });
      return;
    }
    attemptKey.current = null;
    setFailure(
      answer.status === 'FALHOU' ? `${FAILURE}. ${answer.motivo ?? NOT_CREATED}` : refusal(answer.motivo),
    );
  }, [review, answer]);

  const changed = (name: keyof CardFormValues) => {
    attemptKey.current = null;
    clearErrors(name);
  };
  const field = (name: keyof CardFormValues) => register(name, { onChange: () => changed(name) });

  const pay = handleSubmit(async (values) => {
    if (processing || review) return;
    setFailure(null);
    if (!brand || !chosen) {
      setError('installments', { message: 'Escolha o número de parcelas.' });
      return;
    }
    // The schema has checked the date; this only turns it into the provider's format.
    const birth = brDateToIso(values.birth) ?? '';
    attemptKey.current ??= crypto.randomUUID();
    try {
      const outcome = await payCard.mutateAsync({
        purpose: finalidade,
        draft,
        totalCents,
        product: produto,
        payer,
        card: {
          brand,
          number: values.number.replace(/\s+/g, ''),
          cvv: values.cvv.trim(),
          expirationMonth: values.month,
          expirationYear: values.year,
          holderName: values.holderName.trim(),
          holderDocument: values.cpf.replace(/\D/g, ''),
        },
        installment: chosen,
        birth,
        idempotencyKey: attemptKey.current,
      });
      if (outcome.kind === 'refused') {
        attemptKey.current = null;
        setFailure(refusal(outcome.reason));
        return;
      }
      const { kind, txid, ...paid } = outcome;
      if (kind === 'review') setReview({ chargeId: txid, ...paid });
      else onPaid({ chargeId: txid, ...paid });
    } catch (err) {
      if (isUnknownOutcome(err)) {
        setFailure(UNKNOWN);
        return;
      }
      // Anything else is a definite answer with nothing charged: the next try is a new attempt.
      attemptKey.current = null;
      if (err instanceof CardTokenError) {
        const at = CODE_FIELD[err.detail.error];
        const message = cardErrorMessage(err.detail);
        if (at) setError(at, { message });
        else setFailure(`${FAILURE}. ${message}`);
        return;
      }
      const detail = err instanceof ApiRequestError ? err.body?.detail : null;
      setFailure(detail ? `${FAILURE}. ${detail}` : FAILURE);
    }
  });

  const detected = detectCardBrand(number);
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 12 }, (_, i) => String(thisYear + i));
  return (
    <form noValidate onSubmit={(e) => void pay(e)} aria-label="Pagamento com cartão" className="grid gap-4">
      <MaskedField
        label="Número do cartão"
        mask={cardNumberMask}
        autoComplete="cc-number"
        placeholder="0000 0000 0000 0000"
        required
        error={errors.number?.message}
        {...field('number')}
      />
      <FormField
        label="Bandeira"
        readOnly
        value={brand ? BRAND_NAMES[brand] : detected === 'unsupported' ? 'Não aceita' : ''}
        className={`${inputClass} bg-stone-100 dark:bg-stone-800`}
      />
      <FormField
        label="Nome impresso no cartão"
        autoComplete="cc-name"
        required
        maxLength={50}
        error={errors.holderName?.message}
        {...field('holderName')}
      />
      <div className="grid grid-cols-3 gap-3">
        <SelectField
          label="Mês"
          autoComplete="cc-exp-month"
          required
          error={errors.month?.message}
          {...field('month')}
        >
          <option value="">MM</option>
          {MONTHS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Ano"
          autoComplete="cc-exp-year"
          required
          error={errors.year?.message}
          {...field('year')}
        >
          <option value="">AAAA</option>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </SelectField>
        <FormField
          label="CVV"
          inputMode="numeric"
          autoComplete="cc-csc"
          required
          maxLength={4}
          error={errors.cvv?.message}
          {...filtered(field('cvv'), /\D/g)}
        />
      </div>
      <MaskedField
        label="CPF do titular"
        mask={cpfMask}
        placeholder="000.000.000-00"
        required
        error={errors.cpf?.message}
        {...field('cpf')}
      />
      <FormField
        label="Data de nascimento do titular"
        inputMode="numeric"
        autoComplete="bday"
        placeholder="dd/mm/aaaa"
        required
        maxLength={10}
        error={errors.birth?.message}
        {...rewritten(field('birth'), maskBrDate)}
      />
      <div className="flex flex-col gap-1">
        <Controller
          control={control}
          name="installments"
          render={({ field: { value, onChange, ...rest } }) => (
            <SelectField
              label="Parcelas"
              required
              disabled={options.length === 0}
              error={errors.installments?.message}
              {...rest}
              value={chosen ? value : ''}
              onChange={(e) => {
                onChange(e.target.value);
                changed('installments');
              }}
            >
              <option value="">
                {brand
                  ? installments.isFetching
                    ? 'Carregando parcelas...'
                    : 'Escolha as parcelas'
                  : 'Digite o número do cartão'}
              </option>
              {options.map((o) => (
                <option key={o.installment} value={String(o.installment)}>
                  {installmentLabel(o, totalCents)}
                </option>
              ))}
            </SelectField>
          )}
        />
        {installments.isError ? (
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
        disabled={phase !== 'idle'}
        className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
      >
        {processing ? 'Processando...' : 'Pagar com cartão'}
      </button>
    </form>
  );
}
