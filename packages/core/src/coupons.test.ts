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

  it('never leaves a charge under R$ 1,00', () => {
    expect(couponDiscountCents(percent(100), 8990, 8990)).toBe(8990 - MIN_CHARGE_CENTS);
    expect(couponDiscountCents(fixed(5000), 4000, 4000)).toBe(3900);
    expect(couponDiscountCents(fixed(5000), 100, 100)).toBe(0);
  });
});

describe('couponLabel', () => {
  it('names what the coupon gives', () => {
    expect(couponLabel(percent(10), 'loja')).toBe('10% nos produtos');
    expect(couponLabel(fixed(2000), 'corridas')).toBe('R$\u00a020,00 na inscrição');
  });
});
