/**
 * Invoicing: the NF-e (goods, model 55) and NFS-e (services) of the shop's sales, issued through an
 * invoicing provider that signs and transmits them to SEFAZ or the city (docs/decisions/0043).
 * Every document is known by our reference (`ref`), derived from our own ids: issuing a reference the
 * provider already has answers that document, never a second one.
 */

export type TaxRegime = 'simples_nacional' | 'simples_excesso' | 'regime_normal';

export interface FiscalAddress {
  street: string;
  number: string;
  district: string;
  city: string;
  /** IBGE city code, 7 digits. */
  cityCode: string;
  uf: string;
  /** 8 digits. */
  cep: string;
}

export interface Emitter {
  cnpj: string;
  ie: string;
  name: string;
  regime: TaxRegime;
  address: FiscalAddress;
  /** Municipal registration, for the NFS-e. */
  im: string;
}

export interface NfeItem {
  code: string;
  description: string;
  ncm: string;
  /** Origin of the goods (0 national … 8), as the NF-e's `orig`. */
  origin: number;
  cfop: string;
  /** CST (regime normal) or CSOSN (Simples Nacional). */
  icmsSituation: string;
  pisSituation: string;
  cofinsSituation: string;
  quantity: number;
  unitCents: number;
  totalCents: number;
}

export interface NfeInput {
  ref: string;
  /** `1` sale, `4` return (devolução, referencing `referencedKey`). */
  purpose: 1 | 4;
  operation: string;
  /** The moment we decided to issue; the offline provider derives the key's AAMM from it. */
  issuedAt: Date;
  /** Our number for the nota (the offline provider uses it; Focus numbers its own). */
  number: number;
  series: number;
  emitter: Emitter;
  recipient: { name: string; cpf: string; email: string | null; address: FiscalAddress | null };
  items: NfeItem[];
  shippingCents: number;
  discountCents: number;
  totalCents: number;
  referencedKey?: string;
}

export interface NfseInput {
  ref: string;
  issuedAt: Date;
  number: number;
  emitter: Emitter;
  /**
   * Who took the service; null for one NFS-e of an event's month (tomador não identificado, where the
   * city allows it: NFSE_GROUPING=event_month, docs/decisions/0049).
   */
  taker: { name: string; cpf: string; email: string | null } | null;
  /** The city's service code (item da lista de serviços). */
  serviceCode: string;
  description: string;
  amountCents: number;
}

/** A file of an authorised document: its bytes, or where the provider keeps it. */
export type FiscalFile = { bytes: Buffer } | { url: string };

export type FiscalAnswer =
  | { state: 'processando' }
  | {
      state: 'autorizada';
      accessKey: string | null;
      number: string;
      series: string | null;
      protocol: string | null;
      verificationCode?: string | null;
      pdf: FiscalFile;
      xml: FiscalFile;
    }
  /** Refused by SEFAZ or the city (code and message as they gave them); the reference may be sent again. */
  | { state: 'rejeitada'; code: string; message: string }
  | { state: 'cancelada' };

export type CancelAnswer =
  | { state: 'cancelada'; xml: FiscalFile | null }
  | { state: 'recusada'; code: string; message: string };

/** The provider did not answer, timed out or answered 5xx: try again later. */
export class InvoicingUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvoicingUnavailable';
  }
}

/** The provider refused the request itself (4xx other than a duplicate): our data or setup is wrong. */
export class InvoicingRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'InvoicingRefused';
  }
}

export interface InvoicingProvider {
  readonly name: 'offline' | 'focusnfe';
  /** What the provider knows of a reference; null when it never received it. */
  consultNfe(ref: string): Promise<FiscalAnswer | null>;
  issueNfe(input: NfeInput): Promise<FiscalAnswer>;
  cancelNfe(ref: string, justification: string): Promise<CancelAnswer>;
  consultNfse(ref: string): Promise<FiscalAnswer | null>;
  issueNfse(input: NfseInput): Promise<FiscalAnswer>;
  cancelNfse(ref: string, justification: string): Promise<CancelAnswer>;
  /** Downloads a file the provider keeps (DANFE, XML). */
  download(url: string): Promise<Buffer>;
}
