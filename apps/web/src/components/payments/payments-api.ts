import { type CardError, MIN_CARD_TOTAL_CENTS } from '@passada/core/card';
import type { PublicConfig } from '@passada/core/contracts/config';
import type {
  CardPayResponse,
  CardTokenResponse,
  InstallmentsResponse,
  PixCreateResponse,
  PixStatusResponse,
} from '@passada/core/contracts/payments';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from '../../lib/api.ts';

export type Purpose = 'pedido' | 'inscricao';
export type PixStatus = PixStatusResponse['status'];

/** docs/product.md §9: the charge's status is read every 7 s. */
export const PIX_POLL_MS = 7000;

/** A charge in these states can never become paid: polling it further is pointless. */
export const FINAL_PIX_STATUSES: ReadonlySet<PixStatus> = new Set([
  'CONCLUIDA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
  'EXPIRADA',
  'RECUSADA',
]);

/** The server's public settings: which payments provider runs, and Efí's public account id. */
export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: () => apiFetch<PublicConfig>('/api/config/', { auth: false }),
  staleTime: Number.POSITIVE_INFINITY,
});

export function useSimulatedPayments(): boolean {
  return useQuery(publicConfigQuery).data?.pagamentos.provedor === 'simulado';
}

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
 * A Pix charge's status. The charge is ATIVA when created, so the first read waits for the first
 * tick; reads stop once the status is final. A failed read is simply tried again on the next tick.
 */
export function pixStatusQuery(txid: string) {
  return queryOptions({
    queryKey: ['pix-status', txid],
    queryFn: ({ signal }) => apiFetch<PixStatusResponse>(`/api/status-pix/${txid}/`, { signal }),
    initialData: { status: 'ATIVA' } as PixStatusResponse,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchInterval: (query) =>
      query.state.data && FINAL_PIX_STATUSES.has(query.state.data.status) ? false : PIX_POLL_MS,
    // The buyer is often in the bank's app while paying: the page must keep checking meanwhile.
    refetchIntervalInBackground: true,
  });
}

export function usePixStatus(txid: string | null) {
  return useQuery({ ...pixStatusQuery(txid ?? ''), enabled: txid !== null });
}

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

/** Tokenizes the card in the browser, then pays with the token; a refused token throws CardTokenError. */
export function usePayCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (payment: CardPayment): Promise<CardPayResponse> => {
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
      return apiFetch<CardPayResponse>('/api/pagar-cartao/', {
        method: 'POST',
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
          finalidade: purpose,
          [purpose]: payment.draft,
        },
      });
    },
  });
}
