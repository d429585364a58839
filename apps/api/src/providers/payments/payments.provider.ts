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
  /** When the provider stops accepting payment: its own creation time plus the expiry it recorded. */
  expiresAt: Date;
}

export interface PixState {
  txid: string;
  status: ProviderPixStatus;
  amountCents: number;
  /** Set once paid: the Pix transfer that paid the charge. */
  endToEndId?: string;
  /** What that transfer carried, which a payer's bank could make differ from `amountCents`. */
  paidCents?: number;
  paidAt?: Date;
  expiresAt: Date;
  /** The provider's answer as it came, for the payment event log (pass it through redactProviderPayload). */
  raw: unknown;
}

export type PixRefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface PixRefundInput {
  /** The Pix transfer being returned (from PixState.endToEndId). */
  endToEndId: string;
  /** Ours, 1–35 alphanumerics: asking again with the same id never refunds twice. */
  refundId: string;
  amountCents: number;
}

export interface PixRefund {
  refundId: string;
  status: PixRefundStatus;
  amountCents: number;
  raw: unknown;
}

/** Where a Pix refund stands at the provider, read back by its id. */
export interface PixRefundState {
  refundId: string;
  status: PixRefundStatus;
  /** Why the payer's bank did not take the money back (only with NAO_REALIZADO). */
  reason?: string;
  raw: unknown;
}

export interface CardRefundInput {
  /** The provider's id of the paid card charge. */
  providerChargeId: string;
  amountCents: number;
}

/** The card network returns the money to the card; Efí answers at once and the charge becomes `refunded`. */
export interface CardRefund {
  status: PixRefundStatus;
  raw: unknown;
}

export interface PixWebhookRegistration {
  url: string;
  createdAt?: Date;
}

export interface BillingAddress {
  street: string;
  number: string;
  neighborhood: string;
  zipcode: string;
  city: string;
  state: string;
  complement?: string;
}

export interface CardChargeInput {
  paymentToken: string;
  installments: number;
  /** Price before interest, in centavos; the provider applies its own interest table. */
  amountCents: number;
  itemName: string;
  customer: {
    name: string;
    cpf: string;
    email: string;
    /** Sent only when it is a valid Brazilian number (DDD + 8 or 9 digits). */
    phone?: string;
    /** `YYYY-MM-DD`; Efí refuses a card charge without it. */
    birth?: string;
  };
  /** Efí refuses a card charge without it. */
  billingAddress?: BillingAddress;
  /** Our charge id: comes back in notifications so a charge whose answer was lost can be found. */
  customId?: string;
  /** Where Efí POSTs card status changes (a `notification` token). */
  notificationUrl?: string;
}

/**
 * Efí's card charge statuses. Only `paid` (and `settled`, paid and later transferred) means money
 * arrived; `approved` is the card network's yes before the money is credited; `waiting` is pending.
 */
export const CARD_STATUSES = [
  'waiting',
  'approved',
  'paid',
  'unpaid',
  'canceled',
  'refunded',
  'contested',
  'settled',
] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export interface CardChargeResult {
  chargeId: string;
  customId?: string;
  status: CardStatus;
  /** Why the card was refused (`unpaid`), as the provider tells it. */
  refusalReason?: string;
  installments: number;
  installmentValueCents: number;
  /** What the card is charged, interest included, in centavos. */
  totalCents: number;
  raw: unknown;
}

export interface CardNotification {
  chargeId: string;
  customId?: string;
  /** The latest status among the changes the notification lists. */
  status: CardStatus;
  raw: unknown;
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

/**
 * The call may or may not have reached the provider (no answer in time, connection lost): the
 * outcome is unknown, so this is never a refusal. Keep the charge pending and ask again later.
 */
export class PaymentProviderTimeout extends PaymentProviderError {
  constructor(message = 'A Efí não respondeu a tempo.') {
    super(message, 504, 'timeout');
  }
}

export interface SimulatedRefund {
  /** The Pix transfer returned; empty for a card refund. */
  endToEndId: string;
  refundId: string;
  amountCents: number;
  /** Set for a card refund: the card charge it returned. */
  cardChargeId?: string;
}

/** Only in `simulado`: plays the bank (paying a charge), the card network and Efí's browser tokenizer. */
/** A Pix as the simulated bank had it, rebuilt from the shop's own record of the charge. */
export interface RecalledPix {
  txid: string;
  amountCents: number;
  createdAt: Date;
  expiresAt: Date;
  status: ProviderPixStatus;
  endToEndId?: string;
  paidAt?: Date;
}

/** A card charge as the simulated network had it, rebuilt from the shop's own record. */
export interface RecalledCard {
  chargeId: string;
  customId: string;
  status: CardStatus;
  installments: number;
  installmentValueCents: number;
  totalCents: number;
}

/**
 * Where the simulated bank, which keeps its charges in memory, finds again after a restart the ones
 * it had: the shop's database. Null when the shop never recorded it as created there (it never was, or
 * the process died before the answer was recorded; either way it is gone, as a real 404 says).
 */
export interface SimulatedMemory {
  pix(key: { txid: string } | { endToEndId: string }): Promise<RecalledPix | null>;
  card(providerChargeId: string): Promise<RecalledCard | null>;
}

export interface PaymentsSimulator {
  /**
   * Gives the simulated bank a memory that survives a restart (docs/decisions/0028): a charge it does
   * not hold in this process is looked up there before it answers "not found".
   */
  rememberFrom(memory: SimulatedMemory): void;
  /**
   * The payer paid at the bank; the confirmation then comes in as from a real provider. An expired or
   * removed charge is not paid, unless `afterExpiry` plays a payment that raced the expiry.
   */
  payPix(txid: string, now: Date, options?: { afterExpiry?: boolean }): { endToEndId: string } | null;
  /** Efí's tokenizer: the same card checks, answering a token that does not contain the card number. */
  tokenizeCard(card: unknown, now: Date): CardResult<{ payment_token: string; card_mask: string }>;
  /** Every refund the simulated bank accepted, once per refund id. */
  refunds(): SimulatedRefund[];
  /** The card network decides a pending charge; answers the notification token Efí would POST. */
  settleCard(chargeId: string, status: 'paid' | 'unpaid'): { notificationToken: string };
  /** The charge created for one of our ids, even when its answer never arrived. */
  findCardCharge(customId: string): { chargeId: string; status: CardStatus } | undefined;
}

export interface PaymentsProvider {
  readonly name: 'simulado' | 'efi';
  createPix(input: CreatePixInput): Promise<PixCharge>;
  getPix(txid: string): Promise<PixState>;
  /** Removes an unpaid charge so it can no longer be paid; answers the charge as it ends up (it may have been paid). */
  cancelPix(txid: string): Promise<PixState>;
  refundPix(input: PixRefundInput): Promise<PixRefund>;
  /**
   * Reads a Pix refund back (EM_PROCESSAMENTO until the payer's bank settles it, then DEVOLVIDO or
   * NAO_REALIZADO with the reason). A refund never requested answers a 404 PaymentProviderError.
   */
  refundStatus(input: { endToEndId: string; refundId: string }): Promise<PixRefundState>;
  /**
   * Returns `amountCents` of a paid card charge: the whole or a part (several parts up to the total; the
   * charge becomes `refunded` when nothing is left). The card keeps no refund id: asking again for a
   * charge already `refunded` changes nothing, a part asked twice is returned twice (the caller guards it).
   */
  refundCard(input: CardRefundInput): Promise<CardRefund>;
  /** Never retried: a lost answer throws PaymentProviderTimeout and the charge must be found later. */
  chargeCard(input: CardChargeInput): Promise<CardChargeResult>;
  getCardCharge(providerChargeId: string): Promise<CardChargeResult>;
  /** Reads what a card notification token stands for; the POST itself carries nothing else. */
  cardNotification(token: string): Promise<CardNotification>;
  installments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]>;
  /** Tells the provider where to POST Pix confirmations, and checks it took. */
  registerPixWebhook(url: string): Promise<void>;
  /** The registered Pix webhook, or null when there is none. */
  getPixWebhook(): Promise<PixWebhookRegistration | null>;
  readonly simulator?: PaymentsSimulator;
}
