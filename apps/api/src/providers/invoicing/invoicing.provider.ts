/**
 * Invoicing: the NF-e (goods, model 55) and NFS-e (services) of the shop's sales, issued through an
 * invoicing provider that signs and transmits them to SEFAZ or the city (docs/decisions/0043).
 * Every document is known by our reference (`ref`), derived from our own ids: issuing a reference the
 * provider already has answers that document, never a second one.
 */

export type TaxRegime = 'simples_nacional' | 'simples_excesso' | 'regime_normal' | 'mei';

export interface FiscalAddress {
  street: string;
  /** The house number as given ("1000"), "S/N" only when the address has none. */
  number: string;
  complement?: string;
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

/**
 * An item's IBS and CBS (NT 2025.002-RTC group `IBSCBS`, docs/decisions/0059): CST and cClassTrib, the
 * base and, per tax, the rate (ten-thousandths of a percent, `@passada/core/fiscal/ibs-cbs`) and value.
 */
export interface NfeItemIbsCbs {
  situation: string;
  classification: string;
  baseCents: number;
  ibsUfRate: number;
  ibsUfCents: number;
  ibsMunRate: number;
  ibsMunCents: number;
  ibsCents: number;
  cbsRate: number;
  cbsCents: number;
}

export interface NfeItem {
  code: string;
  description: string;
  ncm: string;
  /** Origin of the goods (0 national … 8), as the NF-e's `orig`. */
  origin: number;
  cfop: string;
  /** CST (regime normal, Simples over the sub-limit) or CSOSN (Simples Nacional, MEI). */
  icmsSituation: string;
  pisSituation: string;
  cofinsSituation: string;
  quantity: number;
  unitCents: number;
  totalCents: number;
  /** The item's share of the nota's freight and discount (they add up to the totals'). */
  shippingCents: number;
  discountCents: number;
  /** Present when the nota carries the group (regime and date, `ibsCbsRequired`). */
  ibsCbs: NfeItemIbsCbs | null;
}

/** `IBSCBSTot`: the sums of the items' groups. */
export interface NfeIbsCbsTotals {
  baseCents: number;
  ibsUfCents: number;
  ibsMunCents: number;
  ibsCents: number;
  cbsCents: number;
}

export interface NfeInput {
  ref: string;
  /**
   * `1` sale, `4` return (devolução, referencing `referencedKey`), `5` nota de crédito (NT 2025.002-RTC:
   * an entry, `tpNF` 0, referencing the sale's NF-e, whose items carry only the IBSCBS group; rejection
   * 1001 for ICMS, PIS or COFINS on it).
   */
  purpose: 1 | 4 | 5;
  /**
   * `tpNFCredito` of a nota de crédito (docs/decisions/0059, later): `04` "Redução de valores", `03` "retorno
   * por recusa total na entrega", `06` "retorno por recusa parcial na entrega".
   */
  creditType?: '03' | '04' | '06';
  /** `cIndOp` (Anexo VII of the NFS-e Padrão Nacional, LC 214/2025 art. 11): a sale's, 010103. */
  operationIndicator?: string;
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
  /** Null when the nota carries no IBS/CBS (a Simples shop before 2027). */
  ibsCbsTotals: NfeIbsCbsTotals | null;
  referencedKey?: string;
}

/**
 * Who took the service: a person by CPF (a runner) or a company by CNPJ (a team's places paid by a
 * company, docs/decisions/0077), with its legal name and, where there is one, the address.
 */
export type NfseTaker = { name: string; email: string | null; address: FiscalAddress | null } & (
  | { cpf: string; cnpj?: undefined }
  | { cnpj: string; cpf?: undefined }
);

export interface NfseInput {
  ref: string;
  issuedAt: Date;
  number: number;
  emitter: Emitter;
  /**
   * Who took the service; null for one NFS-e of an event's month (tomador não identificado, where the
   * city allows it: NFSE_GROUPING=event_month, docs/decisions/0049).
   */
  taker: NfseTaker | null;
  /** The city's service code (item da lista de serviços). */
  serviceCode: string;
  /** NFS-e Padrão Nacional (docs/decisions/0059): `cTribNac` (6 digits) and, where required, NBS. */
  nationalCode: string;
  nbs: string;
  /** `cLocIncid`: IBGE code of the city where the tax is due (the event's). */
  incidenceCityCode: string;
  /** The shop's CNAE and the city's own service code, sent where the city's rule asks for them. */
  cnae: string;
  municipalCode: string;
  description: string;
  amountCents: number;
  /**
   * The competência (`dCompet`, YYYY-MM-DD): the day the service is taxed, which decides the IBS/CBS
   * group and its rates (a registration's day of issue; a month's nota, the month's last day).
   */
  competence: string;
  /**
   * The service's IBS and CBS (NT 004 of the NFS-e Padrão Nacional, group `IBSCBS`; docs/decisions/0059,
   * later): CST, cClassTrib, the base (the service's value) and each tax's rate and value, computed like
   * an NF-e item's. Null when the shop's regime and the date of issue do not ask for it.
   */
  ibsCbs: NfeItemIbsCbs | null;
  /** The DPS's `IBSCBS/cIndOp` (Anexo VII), sent with the group: a registration's, 030102. */
  operationIndicator?: string;
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

/**
 * One item of an NF-e whose goods were lost in the shop's own transport (event 112130, NT 2025.002-RTC v1.31
 * §8.16, group `gPerecimento`): its `nItem`, the IBS and CBS the NF-e declared for the lost quantity (the
 * debit the event undoes), the quantity and unit (`gControleEstoque`) and the IBS and CBS credited on the
 * goods' purchase that the loss reverses.
 */
export interface NfeLossItem {
  item: number;
  ibsCents: number;
  cbsCents: number;
  quantity: number;
  unit: string;
  purchaseIbsCents: number;
  purchaseCbsCents: number;
}

/**
 * An event on an authorised NF-e, by our reference: 112130 "Perecimento, perda, roubo ou furto durante o
 * transporte contratado pelo fornecedor" (the shop contracts the carrier: freight CIF), author the emitter.
 */
export interface NfeEventInput {
  ref: string;
  type: '112130';
  accessKey: string;
  /** `nSeqEvento`: 1 for the first event of this type on the NF-e. */
  sequence: number;
  issuedAt: Date;
  emitter: Emitter;
  items: NfeLossItem[];
}

export type NfeEventAnswer =
  | { state: 'registrado'; protocol: string; xml: FiscalFile }
  /** Refused by SEFAZ (code and message as given); the reference may be sent again. */
  | { state: 'rejeitada'; code: string; message: string };

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
  /** What the provider knows of an event sent under `ref`; null when it never received it. */
  consultNfeEvent(ref: string): Promise<NfeEventAnswer | null>;
  registerNfeEvent(input: NfeEventInput): Promise<NfeEventAnswer>;
  /** Downloads a file the provider keeps (DANFE, XML). */
  download(url: string): Promise<Buffer>;
}
