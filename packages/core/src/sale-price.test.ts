import { describe, expect, it } from 'vitest';
import { priceAt, unitPrice } from './sale-price.ts';

describe('a product’s price at a moment', () => {
  const sale = {
    priceCents: 9990,
    startsAt: new Date('2026-12-10T12:00:00Z'),
    endsAt: new Date('2026-12-12T03:00:00Z'),
  };
  it('is the sale price from the start (inclusive) to the end (exclusive), with the list price beside it', () => {
    expect(priceAt(12990, sale, new Date('2026-12-10T11:59:59.999Z'))).toEqual({
      priceCents: 12990,
      listCents: null,
      endsAt: null,
    });
    expect(priceAt(12990, sale, new Date('2026-12-10T12:00:00Z'))).toEqual({
      priceCents: 9990,
      listCents: 12990,
      endsAt: sale.endsAt,
    });
    expect(priceAt(12990, sale, new Date('2026-12-12T02:59:59.999Z')).priceCents).toBe(9990);
    expect(priceAt(12990, sale, new Date('2026-12-12T03:00:00Z')).priceCents).toBe(12990);
  });
  it('is the list price when there is no sale, or when the list price fell to the sale price or below', () => {
    expect(priceAt(12990, null, new Date('2026-12-11T00:00:00Z')).listCents).toBeNull();
    expect(priceAt(9990, sale, new Date('2026-12-11T00:00:00Z'))).toEqual({
      priceCents: 9990,
      listCents: null,
      endsAt: null,
    });
    expect(priceAt(8990, sale, new Date('2026-12-11T00:00:00Z')).priceCents).toBe(8990);
  });
  it('limited to some colours × sizes, is their price alone; the product asked without one keeps the list price', () => {
    const partial = { ...sale, only: [{ colorId: 1, sizeId: 4 }] };
    const during = new Date('2026-12-11T00:00:00Z');
    expect(priceAt(12990, partial, during).priceCents).toBe(12990);
    expect(priceAt(12990, partial, during, { colorId: 1, sizeId: 4 }).priceCents).toBe(9990);
    expect(priceAt(12990, partial, during, { colorId: 1, sizeId: 3 }).priceCents).toBe(12990);
    expect(priceAt(12990, { ...sale, only: [] }, during).priceCents).toBe(9990);
  });
  it('prices a unit from its combination when it carries its own price', () => {
    expect(unitPrice({ price: 129.9 }, { preco: 99.9 })).toBe(99.9);
    expect(unitPrice({ price: 129.9 }, {})).toBe(129.9);
    expect(unitPrice({ price: 129.9 }, undefined)).toBe(129.9);
  });
});
