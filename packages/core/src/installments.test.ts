import { describe, expect, it } from 'vitest';
import {
  chargedCents,
  interestFreeOffer,
  listInstallments,
  precoJuros,
  priceTableInstallment,
} from './installments.ts';

describe('installments', () => {
  it('offers 1–3 without interest and 4–12 with the monthly rate (Price table)', () => {
    const list = listInstallments(100_000);
    expect(list).toHaveLength(12);
    expect(list[0]).toEqual({
      installment: 1,
      has_interest: false,
      value: 100_000,
      currency: '1000,00',
      interest_percentage: 0,
    });
    expect(list[2]).toEqual({
      installment: 3,
      has_interest: false,
      value: 33_333,
      currency: '333,33',
      interest_percentage: 0,
    });
    // 1000 × 0.0199 / (1 − 1.0199^−4) = 262.56 (checked independently with Python)
    expect(list[3]).toMatchObject({
      installment: 4,
      has_interest: true,
      value: 26_256,
      interest_percentage: 199,
    });
    expect(list[11]).toMatchObject({ installment: 12, has_interest: true, value: 9_450 });
  });
  it('computes the Price table instalment', () => {
    expect(priceTableInstallment(100_000, 12, 0.0199)).toBe(9450);
    expect(priceTableInstallment(90_000, 3, 0)).toBe(30_000);
  });
  it('never offers an instalment under R$ 5,00, but always a single payment', () => {
    expect(listInstallments(1_200).map((o) => o.installment)).toEqual([1, 2]);
    expect(listInstallments(300).map((o) => o.installment)).toEqual([1]);
    expect(listInstallments(5_000).every((o) => o.installment === 1 || o.value >= 500)).toBe(true);
  });
  it('preco_juros is installment × value / 100 and the charge equals it with interest', () => {
    const four = listInstallments(100_000)[3]!;
    expect(precoJuros(four)).toBe(1050.24);
    expect(chargedCents(100_000, four)).toBe(105_024);
    const three = listInstallments(2_000)[2]!;
    expect(precoJuros(three)).toBe(20.01);
    expect(chargedCents(2_000, three)).toBe(2_000);
  });

  it('offers the most interest-free instalments the price allows', () => {
    expect(interestFreeOffer(9990)).toMatchObject({ installment: 3, value: 3330, has_interest: false });
    // R$ 12,00 makes two of R$ 6,00; a third would be under the R$ 5,00 minimum.
    expect(interestFreeOffer(1200)).toMatchObject({ installment: 2, value: 600 });
    expect(interestFreeOffer(900)).toBeNull();
  });
});
