import { addBusinessDays, addDays, type IsoDate } from '@passada/core/calendar';
import { type Region, regionOf, stateForCep } from '@passada/core/cep';
import { s10CheckDigit } from '@passada/core/s10';
import {
  type ReturnAuthorization,
  type ShippingPackage,
  type ShippingProvider,
  ShippingProviderError,
  type ShippingQuotes,
} from './shipping.provider.ts';

/** Distance bands from the origin state, nearest first. */
export type ShippingBand = 'mesmo_estado' | 'mesma_regiao' | 'regiao_vizinha' | 'distante';

/** Regions that share a border (IBGE macro-regions). */
const NEIGHBOURS: Record<Region, readonly Region[]> = {
  N: ['NE', 'CO'],
  NE: ['N', 'CO', 'SE'],
  CO: ['N', 'NE', 'SE', 'S'],
  SE: ['NE', 'CO', 'S'],
  S: ['SE', 'CO'],
};

interface Rate {
  /** Price of the first 500 g. */
  baseCents: number;
  /** Each further 500 g or part of it. */
  stepCents: number;
  businessDays: number;
}

/**
 * The offline table, modelled on Correios retail prices of 2025 for small parcels: SEDEX always faster
 * and dearer than PAC in the same band.
 */
export const RATES: Record<'pac' | 'sedex', Record<ShippingBand, Rate>> = {
  pac: {
    mesmo_estado: { baseCents: 1890, stepCents: 250, businessDays: 3 },
    mesma_regiao: { baseCents: 2390, stepCents: 350, businessDays: 6 },
    regiao_vizinha: { baseCents: 2990, stepCents: 500, businessDays: 8 },
    distante: { baseCents: 3690, stepCents: 700, businessDays: 11 },
  },
  sedex: {
    mesmo_estado: { baseCents: 2490, stepCents: 450, businessDays: 1 },
    mesma_regiao: { baseCents: 3490, stepCents: 650, businessDays: 2 },
    regiao_vizinha: { baseCents: 4690, stepCents: 900, businessDays: 3 },
    distante: { baseCents: 5890, stepCents: 1200, businessDays: 5 },
  },
};

export function bandFor(originCep: string, destinationCep: string): ShippingBand {
  const from = stateForCep(originCep);
  const to = stateForCep(destinationCep);
  if (!from) throw new ShippingProviderError(`CEP de origem sem estado: ${originCep}`);
  if (!to) throw new ShippingProviderError(`CEP de destino sem estado: ${destinationCep}`);
  if (from === to) return 'mesmo_estado';
  const a = regionOf(from);
  const b = regionOf(to);
  if (a === b) return 'mesma_regiao';
  return NEIGHBOURS[a].includes(b) ? 'regiao_vizinha' : 'distante';
}

/** Cubic weight as the Correios count it: cm³ / 6000 kg, i.e. cm³ / 6 grams. */
export function cubicWeightGrams(pkg: ShippingPackage): number {
  return Math.ceil((pkg.lengthCm * pkg.widthCm * pkg.heightCm) / 6);
}

/** The weight charged: the real one, or the cubic one when the box is bulky for its weight. */
export function billedWeightGrams(pkg: ShippingPackage): number {
  return Math.max(pkg.weightGrams, cubicWeightGrams(pkg));
}

export function priceFor(rate: Rate, pkg: ShippingPackage): number {
  const steps = Math.max(1, Math.ceil(billedWeightGrams(pkg) / 500));
  return rate.baseCents + (steps - 1) * rate.stepCents;
}

/**
 * The offline carrier's counter (docs/decisions/0040): the postings of return codes it issued, as the
 * demo's simulator or a test records them (`post`), read back by `trackReturn` like a tracking event.
 */
export interface OfflinePostings {
  post(code: string, at: Date): void;
}

/** PAC and SEDEX from the table: band by origin and destination state, price by weight. */
export function createTabelaProvider(): ShippingProvider & { postings: OfflinePostings } {
  const posted = new Map<string, Date>();
  return {
    postings: {
      post(code, at) {
        if (!posted.has(code)) posted.set(code, at);
      },
    },
    async trackReturn(code) {
      return { postedAt: posted.get(code) ?? null };
    },
    name: 'tabela',
    async quote({ originCep, destinationCep, pkg, today }): Promise<ShippingQuotes> {
      const band = bandFor(originCep, destinationCep);
      const service = (rate: Rate) => ({
        priceCents: priceFor(rate, pkg),
        businessDays: rate.businessDays,
        latestDate: addBusinessDays(today, rate.businessDays),
      });
      return { pac: service(RATES.pac[band]), sedex: service(RATES.sedex[band]) };
    },
    async authorizeReturn({ returnId, today }) {
      return offlineReturnAuthorization(returnId, today);
    },
  };
}

/** Days a return authorisation stays valid for posting. */
export const RETURN_CODE_VALID_DAYS = 30;

/**
 * The offline reverse-logistics authorisation (docs/decisions/0036): a real-format Correios object code
 * (UPU S10, service letters `LR`, the request's number as serial, its check digit, `BR`), the same for the
 * same request, valid RETURN_CODE_VALID_DAYS calendar days.
 */
export function offlineReturnAuthorization(returnId: number, today: IsoDate): ReturnAuthorization {
  const serial = String(returnId % 100_000_000).padStart(8, '0');
  const code = `LR${serial}${s10CheckDigit(serial)}BR`;
  return {
    code,
    validUntil: addDays(today, RETURN_CODE_VALID_DAYS),
    instructions:
      'Embale os itens (pode ser na embalagem original) e leve a qualquer agência dos Correios informando o código de autorização de postagem. Você não paga nada pelo envio.',
  };
}
