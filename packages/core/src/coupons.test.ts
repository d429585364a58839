import { describe, expect, it } from 'vitest';
import { couponDiscountCents, couponLabel, MIN_CHARGE_CENTS } from './coupons.ts';

const percent = (p: number) => ({ kind: 'percentual' as const, percent: p, amountCents: null });
const fixed = (c: number) => ({ kind: 'fixo' as const, percent: null, amountCents: c });

describe('couponDiscountCents', () => {
  it('takes a percentage of the eligible lines only, rounded to the centavo', () => {
    expect(couponDiscountCents(percent(10), 8990, 8990 + 2345)).toBe(899);
    expect(couponDiscountCents(percent(15), 999, 5000)).toBe(150);
  });

  it('takes a fixed amount up to the eligible value', () => {
    expect(couponDiscountCents(fixed(2000), 15000, 15000)).toBe(2000);
    expect(couponDiscountCents(fixed(2000), 1500, 9000)).toBe(1500);
  });

  it('takes everything (a free purchase) or leaves at least R$ 1,00', () => {
    expect(couponDiscountCents(percent(100), 8990, 8990)).toBe(8990);
    expect(couponDiscountCents(fixed(5000), 4000, 4000)).toBe(4000);
    expect(couponDiscountCents(fixed(5000), 100, 100)).toBe(100);
    expect(couponDiscountCents(percent(99), 8990, 8990)).toBe(8990 - MIN_CHARGE_CENTS);
    expect(couponDiscountCents(fixed(2000), 2050, 2050)).toBe(2050 - MIN_CHARGE_CENTS);
    // Products free, shipping still to pay.
    expect(couponDiscountCents(percent(100), 8990, 8990 + 2345)).toBe(8990);
  });
});

describe('couponLabel', () => {
  it('names what the coupon gives', () => {
    expect(couponLabel(percent(10), 'loja')).toBe('10% nos produtos');
    expect(couponLabel(fixed(2000), 'corridas')).toBe('R$\u00a020,00 na inscrição');
  });
});
