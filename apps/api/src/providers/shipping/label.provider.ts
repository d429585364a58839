import type { ShippingPackage } from './shipping.provider.ts';

/** One party on a label: who sends or who receives. */
export interface LabelParty {
  name: string;
  phone: string;
  email?: string;
  /** CNPJ of a company sender (digits only), CPF of a person (digits only) when known. */
  document?: string;
  street: string;
  /** The house number when the address keeps it apart from the street (the Correios want it alone). */
  number?: string;
  complement?: string;
  neighborhood: string;
  city: string;
  state: string;
  /** Eight digits. */
  cep: string;
}

/** "Av. Beira Mar, 3000, loja 12" → street, number and complement; "S/N" when there is no number. */
export function splitStreet(p: Pick<LabelParty, 'street' | 'number' | 'complement'>): {
  logradouro: string;
  numero: string;
  complemento?: string;
} {
  if (p.number)
    return { logradouro: p.street, numero: p.number, ...(p.complement ? { complemento: p.complement } : {}) };
  const m = /^(.*?),\s*(\d+[A-Za-z]?|S\/?N)\b,?\s*(.*)$/i.exec(p.street.trim());
  if (!m) return { logradouro: p.street.trim(), numero: 'S/N' };
  const complemento = (m[3] ?? '').trim() || p.complement;
  return {
    logradouro: m[1]!.trim(),
    numero: m[2]!.toUpperCase(),
    ...(complemento ? { complemento } : {}),
  };
}

/** The street line a label prints: "Rua X, 100 – Apto 2" (the number and complement as `splitStreet` reads them). */
export function streetLine(p: Pick<LabelParty, 'street' | 'number' | 'complement'>): string {
  const { logradouro, numero, complemento } = splitStreet(p);
  return `${logradouro}, ${numero}${complemento ? ` – ${complemento}` : ''}`;
}

/** What a label is bought for: one order's parcel. */
export interface LabelRequest {
  /** Our order id: the provider's reference for the shipment. */
  orderId: number;
  service: 'PAC' | 'SEDEX';
  sender: LabelParty;
  recipient: LabelParty;
  pkg: ShippingPackage;
  /** What the products are worth (the insured / declared value), in centavos. */
  declaredValueCents: number;
  /** The authorised NF-e's 44-digit access key; null ships with a content declaration (offline only). */
  nfeKey: string | null;
  products: Array<{ name: string; quantity: number; unitCents: number }>;
}

/** A label the provider has sold: its reference there and the Correios object code. */
export interface BoughtLabel {
  trackingCode: string;
  /** What the provider charged, in centavos (0 offline). */
  priceCents: number;
}

/** Where a parcel stands, as far as the customer is told. */
export type TrackingState = 'aguardando_postagem' | 'postado' | 'saiu_para_entrega' | 'entregue';

export interface TrackingReading {
  state: TrackingState;
  /** When the latest state was reached (ISO instant), if the provider says. */
  at: Date | null;
}

/** A label as the shop keeps it, what printing and tracking need. */
export interface StoredLabel {
  orderId: number;
  providerRef: string;
  trackingCode: string;
  purchasedAt: Date;
  request: LabelRequest;
}

/** The printable labels: a PDF made here, or the provider's page that prints them. */
export type PrintedLabels = { pdf: Buffer } | { url: string };

/**
 * Buys and prints shipping labels and reads their tracking (docs/decisions/0044). Two steps so a
 * label is never paid twice: `create` answers the provider's reference (stored by the caller before
 * anything is paid), `purchase` pays for that reference and answers the tracking code; asking
 * `purchase` again for a reference already paid answers the same label.
 */
export interface LabelProvider {
  readonly name: 'offline' | 'melhorenvio' | 'correios';
  create(request: LabelRequest): Promise<{ ref: string }>;
  purchase(ref: string, request: LabelRequest): Promise<BoughtLabel>;
  print(labels: StoredLabel[]): Promise<PrintedLabels>;
  /** The tracking state of each label, by provider reference; a label the provider does not know is left out. */
  track(labels: StoredLabel[], now: Date): Promise<Map<string, TrackingReading>>;
  /**
   * Cancels a label whose order was cancelled before posting (the provider refunds it). Throws
   * `LabelProviderError` when the provider refuses (`recusado`: posted already) or is down
   * (`indisponivel`: asked again later). A provider without it leaves the label for staff to cancel
   * in the provider's own panel.
   */
  cancel?(label: StoredLabel, now: Date): Promise<void>;
}

/** Why the provider refused, for staff: `reason` is in Portuguese and names no secret. */
export type LabelErrorCode =
  | 'invalido'
  | 'saldo_insuficiente'
  | 'indisponivel'
  | 'nao_autorizado'
  /** A cancellation the provider refused: the parcel was posted, or the carrier was called to collect it. */
  | 'recusado';

export class LabelProviderError extends Error {
  constructor(
    readonly code: LabelErrorCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}
