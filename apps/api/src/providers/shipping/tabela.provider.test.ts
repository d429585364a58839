import { describe, expect, it } from 'vitest';
import { bandFor, billedWeightGrams, createTabelaProvider, priceFor, RATES } from './tabela.provider.ts';

const FORTALEZA = '60165121';
const small = { weightGrams: 300, lengthCm: 24, widthCm: 16, heightCm: 4 };

describe('shipping table', () => {
  it('bands destinations by state and region from the origin', () => {
    expect(bandFor(FORTALEZA, '60175-047')).toBe('mesmo_estado'); // Fortaleza
    expect(bandFor(FORTALEZA, '63010-000')).toBe('mesmo_estado'); // Juazeiro do Norte
    expect(bandFor(FORTALEZA, '50030-000')).toBe('mesma_regiao'); // Recife
    expect(bandFor(FORTALEZA, '01310-100')).toBe('regiao_vizinha'); // São Paulo (SE borders NE)
    expect(bandFor(FORTALEZA, '66010-000')).toBe('regiao_vizinha'); // Belém
    expect(bandFor(FORTALEZA, '90010-000')).toBe('distante'); // Porto Alegre
    expect(bandFor('90010000', '69900-000')).toBe('distante'); // RS → AC
    expect(bandFor('90010000', '70040-000')).toBe('regiao_vizinha'); // RS → DF
  });

  it('charges the cubic weight when the box is bulky for its weight', () => {
    expect(billedWeightGrams(small)).toBe(300);
    // 30 × 30 × 30 cm = 27 000 cm³ → 4 500 g cubic.
    expect(billedWeightGrams({ weightGrams: 500, lengthCm: 30, widthCm: 30, heightCm: 30 })).toBe(4500);
  });

  it('prices the first 500 g at the base and each further 500 g or part at the step', () => {
    const rate = RATES.pac.mesmo_estado;
    expect(priceFor(rate, small)).toBe(1890);
    expect(priceFor(rate, { ...small, weightGrams: 500 })).toBe(1890);
    expect(priceFor(rate, { ...small, weightGrams: 501 })).toBe(1890 + 250);
    expect(priceFor(rate, { ...small, weightGrams: 2000 })).toBe(1890 + 3 * 250);
  });

  it('keeps SEDEX faster and dearer than PAC, and farther dearer and slower, in every band', () => {
    const bands = ['mesmo_estado', 'mesma_regiao', 'regiao_vizinha', 'distante'] as const;
    bands.forEach((band, i) => {
      const pac = RATES.pac[band];
      const sedex = RATES.sedex[band];
      expect(sedex.baseCents, band).toBeGreaterThan(pac.baseCents);
      expect(sedex.stepCents, band).toBeGreaterThan(pac.stepCents);
      expect(sedex.businessDays, band).toBeLessThan(pac.businessDays);
      const nearer = bands[i - 1];
      if (nearer) {
        expect(pac.baseCents).toBeGreaterThan(RATES.pac[nearer].baseCents);
        expect(pac.businessDays).toBeGreaterThan(RATES.pac[nearer].businessDays);
        expect(sedex.baseCents).toBeGreaterThan(RATES.sedex[nearer].baseCents);
      }
    });
  });

  it('dates delivery in business days from the given day, skipping the holiday and weekend', async () => {
    const quote = await createTabelaProvider().quote({
      originCep: FORTALEZA,
      destinationCep: '60175047',
      pkg: small,
      today: '2026-11-19', // Thursday; Friday 20 November is a holiday
    });
    expect(quote.sedex).toEqual({ priceCents: 2490, businessDays: 1, latestDate: '2026-11-23' });
    expect(quote.pac).toEqual({ priceCents: 1890, businessDays: 3, latestDate: '2026-11-25' });
  });
});
