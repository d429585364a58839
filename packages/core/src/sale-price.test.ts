import { describe, expect, it } from 'vitest';
import { priceAt } from './sale-price.ts';

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
});
