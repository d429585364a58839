import { type CardError, MIN_CARD_TOTAL_CENTS } from '@passada/core/card';
import type { PublicConfig } from '@passada/core/contracts/config';
import type {
  CardPayResponse,
  CardTokenResponse,
  ChargeStatusName,
  Finalidade,
  FreeConfirmResponse,
  InstallmentsResponse,
  PaymentListItem,
  PixCreateResponse,
  PixStatusResponse,
} from '@passada/core/contracts/payments';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from '../../lib/api.ts';
import { publicConfigQuery } from '../../lib/config-api.ts';

export { publicConfigQuery, useSimulatedPayments } from '../../lib/config-api.ts';

export type Purpose = Finalidade;
/**
 * A charge's status, Pix or card: EM_ANALISE is a card the bank has not decided yet, DEVOLVIDA a paid
 * charge given back, FALHOU a charge the provider could not create.
 */
export type ChargeStatus = ChargeStatusName;

/** The status route's answer, for Pix and card charges alike. */
export type ChargeStatusResponse = PixStatusResponse;

/** docs/product.md §9: the charge's status is read every 7 s. */
export const PIX_POLL_MS = 7000;
/** A card under review usually settles within seconds: it is read more often than a Pix. */
export const CARD_REVIEW_POLL_MS = 3000;

/** A charge in these states can never become paid: polling it further is pointless. */
export const FINAL_STATUSES: ReadonlySet<ChargeStatus> = new Set<ChargeStatus>([
  'CONCLUIDA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
  'EXPIRADA',
  'RECUSADA',
  'DEVOLVIDA',
  'FALHOU',
]);

/** The instalments the provider offers for this brand and total (Decreto 5.903 figures). */
export function installmentsQuery(brand: string | null, totalCents: number) {
  return queryOptions({
    queryKey: ['parcelas', brand, totalCents],
    queryFn: ({ signal }) =>
      apiFetch<InstallmentsResponse>(`/api/parcelas/?brand=${brand}&total=${totalCents}`, {
        auth: false,
        signal,
      }),
    enabled: brand !== null && totalCents >= MIN_CARD_TOTAL_CENTS,
    staleTime: 5 * 60_000,
  });
}

export function useInstallments(brand: string | null, totalCents: number) {
  return useQuery(installmentsQuery(brand, totalCents));
}

/**
 * A charge's status. It starts as `initial` (what creating it answered), so the first read waits for
 * the first tick; reads stop once the status is final. A failed read is simply tried again on the
 * next tick.
 */
export function chargeStatusQuery(txid: string, initial: ChargeStatus, everyMs: number) {
  return queryOptions({
    queryKey: ['charge-status', txid],
    queryFn: ({ signal }) =>
      apiFetch<ChargeStatusResponse>(`/api/status-pix/${encodeURIComponent(txid)}/`, { signal }),
    initialData: { status: initial } as ChargeStatusResponse,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchInterval: (query) =>
      query.state.data && FINAL_STATUSES.has(query.state.data.status) ? false : everyMs,
    // The buyer is often in the bank's app while paying: the page must keep checking meanwhile.
    refetchIntervalInBackground: true,
  });
}

export const pixStatusQuery = (txid: string) => chargeStatusQuery(txid, 'ATIVA', PIX_POLL_MS);

export function usePixStatus(txid: string | null) {
  return useQuery({ ...pixStatusQuery(txid ?? ''), enabled: txid !== null });
}

/** A card charge the bank is still reviewing, read until it settles. */
export function useCardReview(txid: string | null) {
  return useQuery({
    ...chargeStatusQuery(txid ?? '', 'EM_ANALISE', CARD_REVIEW_POLL_MS),
    enabled: txid !== null,
  });
}

/** A charge the account should know about (last 30 days): under review, refused or given back. */
export type AccountPayment = PaymentListItem;

/** While one is under review the list is read again, so the page shows when it settles. */
export const ACCOUNT_PAYMENTS_POLL_MS = 15_000;

export const accountPaymentsQuery = queryOptions({
  queryKey: ['pagamentos'],
  queryFn: ({ signal }) => apiFetch<AccountPayment[]>('/api/pagamentos/', { signal }),
  retry: false,
  refetchInterval: (query) =>
    query.state.data?.some((p) => p.status === 'EM_ANALISE') ? ACCOUNT_PAYMENTS_POLL_MS : false,
});

export interface PixCharge {
  purpose: Purpose;
  draft: unknown;
  totalCents: number;
  description: string;
}

export function useCreatePix() {
  return useMutation({
    mutationFn: ({ purpose, draft, totalCents, description }: PixCharge) =>
      apiFetch<PixCreateResponse>('/api/pagar-pix/', {
        method: 'POST',
        body: { total: totalCents / 100, descricao: description, finalidade: purpose, [purpose]: draft },
      }),
  });
}

/**
 * Nothing to pay (a free race, 60+ of R$ 0,01, a coupon that takes it all; docs/decisions/0028): the
 * server prices the draft again and confirms it without a charge, answering the txid a paid one has.
 */
export function useConfirmFree() {
  return useMutation({
    mutationFn: ({ purpose, draft }: { purpose: Purpose; draft: unknown }) =>
      apiFetch<FreeConfirmResponse>('/api/confirmar-gratuito/', {
        method: 'POST',
        body: { total: 0, finalidade: purpose, [purpose]: draft },
      }),
  });
}

/** Simulated provider only: the simulated bank pays the charge, so its status is read again at once. */
export function useSimulatePixPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (txid: string) =>
      apiFetch<unknown>(`/api/simulador/pix/${txid}/pagar`, { method: 'POST', auth: false }),
    onSuccess: (_answer, txid) => queryClient.invalidateQueries({ queryKey: pixStatusQuery(txid).queryKey }),
  });
}

/** What the card form hands over; number and CVV go only to the tokenizer, never to our API. */
export interface CardPayment {
  purpose: Purpose;
  draft: unknown;
  /** Before interest. */
  totalCents: number;
  product: string;
  payer: { email: string; phone?: string };
  card: {
    brand: string;
    number: string;
    cvv: string;
    expirationMonth: string;
    expirationYear: string;
    holderName: string;
    holderDocument: string;
  };
  installment: { installment: number; value: number };
  /** The holder's date of birth, YYYY-MM-DD. */
  birth: string;
  /** One per payment attempt: a retry of the same attempt sends it again, so the bank charges once. */
  idempotencyKey: string;
}

/** The tokenizer refused the card; `error` is one of the docs/product.md §8 codes. */
export class CardTokenError extends Error {
  constructor(readonly detail: CardError) {
    super(detail.error);
  }
}

export function isCardError(value: unknown): value is CardError {
  return typeof value === 'object' && value !== null && 'error' in value && 'error_description' in value;
}

async function tokenize(
  config: PublicConfig['pagamentos'],
  card: CardPayment['card'],
): Promise<CardTokenResponse> {
  const data = { ...card, reuse: true };
  if (config.provedor === 'simulado') {
    return apiFetch<CardTokenResponse>('/api/simulador/cartao/token', {
      method: 'POST',
      body: data,
      auth: false,
    });
  }
  const { default: EfiPay } = await import('payment-token-efi');
  const result = await EfiPay.CreditCard.setAccount(config.conta ?? '')
    .setEnvironment(config.ambiente)
    .setCreditCardData(data as unknown as Parameters<typeof EfiPay.CreditCard.setCreditCardData>[0])
    .getPaymentToken();
  if ('payment_token' in result) return result;
  throw result;
}

/**
 * What became of a card payment: paid; under review by the bank (its status is read by `txid`); or
 * refused, with the bank's reason when it gave one.
 */
export type CardOutcome =
  | {
      kind: 'paid';
      txid: string;
      fulfilledId?: number;
      totalCents: number;
      installments: number;
      precoJuros: number;
    }
  | { kind: 'review'; txid: string; totalCents: number; installments: number; precoJuros: number }
  | { kind: 'refused'; reason: string | null };

/** `approved` is what the provider answered before it told "paid" and "approved" apart. */
const PAID = new Set(['paid', 'approved']);

export function cardOutcome(answer: CardPayResponse & { txid?: string }): CardOutcome {
  const data = answer.detalhes.data;
  const charge = {
    txid: answer.txid ?? data.charge_id,
    totalCents: data.total,
    installments: data.installments,
    precoJuros: data.preco_juros,
  };
  if (PAID.has(data.status)) {
    const fulfilledId = answer.pedido_id ?? answer.inscricao_id;
    return { kind: 'paid', ...charge, ...(fulfilledId === undefined ? {} : { fulfilledId }) };
  }
  if (data.status === 'em_analise') return { kind: 'review', ...charge };
  return { kind: 'refused', reason: null };
}

/** Waits before resending the same attempt: a dropped connection, a busy gateway, or the server still at it. */
export const CARD_RETRY_DELAYS_MS = [1000, 2000, 4000];

/** The bank refused the card; the answer's detail is its reason. */
const REFUSED = 'pagamento_recusado';

/** The server is still processing this attempt (same Idempotency-Key). */
export const STILL_PROCESSING = 'pagamento_em_processamento';

/** An answer that says nothing about the charge: the same attempt may safely be sent again. */
export function isUnknownOutcome(err: unknown): boolean {
  if (err instanceof TypeError) return true;
  if (!(err instanceof ApiRequestError)) return false;
  if (err.status === 409) return err.body?.code === STILL_PROCESSING;
  // Bad input is always a 4xx: a 5xx means the server failed midway, perhaps after the bank charged.
  return err.status >= 500;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tokenizes the card in the browser, then pays with the token; a refused token throws CardTokenError. */
export function usePayCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (payment: CardPayment): Promise<CardOutcome> => {
      const config = (await queryClient.fetchQuery(publicConfigQuery)).pagamentos;
      let token: CardTokenResponse;
      try {
        token = await tokenize(config, payment.card);
      } catch (err) {
        const body = err instanceof ApiRequestError ? err.body : err;
        if (isCardError(body)) throw new CardTokenError(body);
        throw err;
      }
      const { purpose, payer } = payment;
      const send = () =>
        apiFetch<CardPayResponse & { txid?: string }>('/api/pagar-cartao/', {
          method: 'POST',
          headers: { 'Idempotency-Key': payment.idempotencyKey },
          body: {
            payment_token: token.payment_token,
            name: payment.card.holderName,
            cpf: payment.card.holderDocument,
            ...(payer.phone ? { phone: payer.phone } : {}),
            email: payer.email,
            produto: payment.product,
            total: payment.totalCents / 100,
            installment: payment.installment.value,
            installments: payment.installment.installment,
            birth: payment.birth,
            finalidade: purpose,
            [purpose]: payment.draft,
          },
        });
      // The token is reused: a retry is the same attempt, never a second charge.
      for (let retry = 0; ; retry++) {
        try {
          return cardOutcome(await send());
        } catch (err) {
          if (err instanceof ApiRequestError && err.body?.code === REFUSED)
            return { kind: 'refused', reason: err.body.detail || null };
          const delay = CARD_RETRY_DELAYS_MS[retry];
          if (delay === undefined || !isUnknownOutcome(err)) throw err;
          await wait(delay);
        }
      }
    },
  });
}
