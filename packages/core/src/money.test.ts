import { describe, expect, it } from 'vitest';
import {
  centsToCommaString,
  centsToReais,
  commaStringToCents,
  formatBRL,
  halfPriceCents,
  reaisToCents,
} from './money.ts';

describe('money', () => {
  it('formats centavos for people in pt-BR', () => {
    expect(formatBRL(12990)).toBe('R$\u00a0129,90');
    expect(formatBRL(123456)).toBe('R$\u00a01.234,56');
    expect(formatBRL(5)).toBe('R$\u00a00,05');
  });

  it('converts between centavos and reais without float drift', () => {
    expect(centsToReais(12990)).toBe(129.9);
    expect(reaisToCents(129.9)).toBe(12990);
    expect(reaisToCents(0.1 + 0.2)).toBe(30);
    expect(reaisToCents(1.005)).toBe(101);
    expect(reaisToCents(-2.5)).toBe(-250);
    for (const cents of [0, 1, 99, 100, 4999, 19990, 123456789]) {
      expect(reaisToCents(centsToReais(cents))).toBe(cents);
    }
  });

  it('writes shipping prices with a decimal comma', () => {
    expect(centsToCommaString(2345)).toBe('23,45');
    expect(centsToCommaString(5)).toBe('0,05');
    expect(centsToCommaString(100000)).toBe('1000,00');
    expect(centsToCommaString(-150)).toBe('-1,50');
  });

  it('reads decimal-comma prices, with or without thousands dots, and rejects others', () => {
    expect(commaStringToCents('23,45')).toBe(2345);
    expect(commaStringToCents('1.234,56')).toBe(123456);
    expect(commaStringToCents('1234,56')).toBe(123456);
    expect(commaStringToCents(' 0,05 ')).toBe(5);
    expect(commaStringToCents('-1,50')).toBe(-150);
    for (const bad of ['23.45', '23,4', '12,345', '1.23,45', 'abc', '', ',50']) {
      expect(() => commaStringToCents(bad)).toThrow();
    }
    expect(commaStringToCents(centsToCommaString(98765))).toBe(98765);
  });

  it("halves a price rounding the odd centavo down, in the buyer's favour (at least 50% off)", () => {
    expect(halfPriceCents(1)).toBe(0);
    expect(halfPriceCents(0)).toBe(0);
    expect(halfPriceCents(3)).toBe(1);
    expect(halfPriceCents(9999)).toBe(4999);
    expect(halfPriceCents(12990)).toBe(6495);
    for (const cents of [1, 2, 7, 101, 4999, 123457]) {
      expect(halfPriceCents(cents) * 2).toBeLessThanOrEqual(cents);
      expect(cents - halfPriceCents(cents) * 2).toBeLessThanOrEqual(1);
    }
    expect(() => halfPriceCents(-2)).toThrow(RangeError);
    expect(() => halfPriceCents(1.5)).toThrow(RangeError);
  });
});
