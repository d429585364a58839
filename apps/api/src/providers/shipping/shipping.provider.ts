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

/** Prices PAC and SEDEX for one package (docs/architecture.md §6). */
export interface ShippingProvider {
  readonly name: 'tabela' | 'correios';
  quote(input: ShippingQuoteInput): Promise<ShippingQuotes>;
}

/** The carrier could not quote (down, refused, answered nonsense); the message is for the log only. */
export class ShippingProviderError extends Error {}
