import type { CardBrand, CardResult } from '@passada/core/card';
import type { InstallmentOption } from '@passada/core/installments';

export type { InstallmentOption };

/** API Pix statuses of an immediate charge. */
export type ProviderPixStatus =
  | 'ATIVA'
  | 'CONCLUIDA'
  | 'REMOVIDA_PELO_USUARIO_RECEBEDOR'
  | 'REMOVIDA_PELO_PSP';

export interface CreatePixInput {
  /** 26–35 alphanumerics, chosen by us so the charge row exists under it before the provider answers. */
  txid: string;
  amountCents: number;
  expiresInSeconds: number;
  createdAt: Date;
  /** Shown to the payer (solicitacaoPagador), at most 140 characters. */
  description: string;
}

export interface PixCharge {
  txid: string;
  pixCopiaECola: string;
  /** `data:image/png;base64,…` */
  qrCodeDataUri: string;
}

export interface PixState {
  txid: string;
  status: ProviderPixStatus;
  amountCents: number;
  /** Set once paid: the Pix transfer that paid the charge. */
  endToEndId?: string;
}

export interface BillingAddress {
  street: string;
  number: string;
  neighborhood: string;
  zipcode: string;
  city: string;
  state: string;
}

export interface CardChargeInput {
  paymentToken: string;
  installments: number;
  /** Price before interest, in centavos; the provider applies its own interest table. */
  amountCents: number;
  itemName: string;
  customer: { name: string; cpf: string; email: string; phone: string };
  billingAddress?: BillingAddress;
}

export interface CardChargeResult {
  chargeId: string;
  /** The provider's status: 'approved' means paid; 'unpaid' (refused) and the rest paid for nothing. */
  status: string;
  installments: number;
  installmentValueCents: number;
  /** What the card is charged, interest included, in centavos. */
  totalCents: number;
}

/** A refusal or failure the provider answered; `status` is its HTTP status. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly providerCode?: string,
  ) {
    super(message);
  }
}

/** Only in `simulado`: plays the bank (paying a charge) and Efí's browser tokenizer. */
export interface PaymentsSimulator {
  /** The payer paid at the bank; the confirmation then comes in as from a real provider. */
  payPix(txid: string, now: Date): { endToEndId: string } | null;
  /** Efí's tokenizer: the same card checks, answering a token that does not contain the card number. */
  tokenizeCard(card: unknown, now: Date): CardResult<{ payment_token: string; card_mask: string }>;
}

export interface PaymentsProvider {
  readonly name: 'simulado' | 'efi';
  createPix(input: CreatePixInput): Promise<PixCharge>;
  getPix(txid: string): Promise<PixState>;
  chargeCard(input: CardChargeInput): Promise<CardChargeResult>;
  installments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]>;
  /** Tells the provider where to POST Pix confirmations. */
  registerPixWebhook(url: string): Promise<void>;
  readonly simulator?: PaymentsSimulator;
}
