import type { IsoDate } from '@passada/core/calendar';

/** What is being sent: total weight in grams and the box in cm. */
export interface ShippingPackage {
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

export interface ShippingQuoteInput {
  originCep: string;
  destinationCep: string;
  pkg: ShippingPackage;
  /** The store's calendar date (America/Fortaleza), from which delivery days are counted. */
  today: IsoDate;
}

export interface ServiceQuote {
  priceCents: number;
  businessDays: number;
  latestDate: IsoDate;
}

export interface ShippingQuotes {
  pac: ServiceQuote;
  sedex: ServiceQuote;
}

/** A buyer sends items back at the shop's cost (docs/decisions/0036): who posts, from where, which request. */
export interface ReturnAuthorizationInput {
  /** Our request id: asking again for the same one answers the same code. */
  returnId: number;
  orderId: number;
  sender: {
    name: string;
    cep: string;
    email: string;
    /** Where the buyer posts from (the order's address), for carriers that ask it. */
    address?: {
      street: string;
      number: string;
      complement?: string;
      neighborhood: string;
      city: string;
      state: string;
    };
    phone?: string;
  };
  /** The store's calendar date, from which the code's validity is counted. */
  today: IsoDate;
}

/** A reverse-logistics posting authorisation: the code the buyer gives at the post office, free of charge. */
export interface ReturnAuthorization {
  code: string;
  /** Last day the code is accepted (aaaa-mm-dd). */
  validUntil: IsoDate;
  instructions: string;
}

/** Where a return authorisation stands at the carrier (docs/decisions/0040). */
export interface ReturnPostingStatus {
  /** When the buyer handed the parcel in; null while it was not posted. */
  postedAt: Date | null;
}

/** Prices PAC and SEDEX for one package (docs/architecture.md §6), and issues return authorisations. */
export interface ShippingProvider {
  readonly name: 'tabela' | 'correios';
  quote(input: ShippingQuoteInput): Promise<ShippingQuotes>;
  authorizeReturn(input: ReturnAuthorizationInput): Promise<ReturnAuthorization>;
  /**
   * Reads a return authorisation's posting from the carrier's tracking, when the carrier offers it (an
   * optional method: without it, staff mark the request posted).
   */
  trackReturn?(code: string): Promise<ReturnPostingStatus>;
}

/** The carrier could not quote (down, refused, answered nonsense); the message is for the log only. */
export class ShippingProviderError extends Error {}
