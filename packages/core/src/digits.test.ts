import { describe, expect, it } from 'vitest';
import { formatIntegerBR, groupThousands } from './digits.ts';
import { formatBRL } from './money.ts';
import { plural } from './plural.ts';

/** Whole numbers across every length, both signs, and the edges (the hand-written forms must equal Intl's). */
function samples(): number[] {
  const values = [0, -0, 1, -1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 99999, 100000, 123456789];
  values.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
  let seed = 7;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 48271) % 2147483647;
    const digits = (seed % 15) + 1;
    const value = Math.floor((seed / 2147483647) * 10 ** digits);
    values.push(value, -value);
  }
  return values;
}

describe('pt-BR digits without Intl', () => {
  it('groups thousands with dots', () => {
    expect(groupThousands(0)).toBe('0');
    expect(groupThousands(999)).toBe('999');
    expect(groupThousands(1000)).toBe('1.000');
    expect(groupThousands(1234567)).toBe('1.234.567');
    expect(formatIntegerBR(-1200)).toBe('-1.200');
  });

  it('writes whole numbers exactly as toLocaleString("pt-BR")', () => {
    for (const value of samples()) expect(formatIntegerBR(value)).toBe(value.toLocaleString('pt-BR'));
  });

  it('writes whole centavos exactly as Intl.NumberFormat BRL', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    for (const cents of samples()) expect(formatBRL(cents)).toBe(intl.format(cents / 100));
  });

  it('leaves fractions and non-finite values to Intl', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    for (const cents of [0.5, -0.4, 2.5, 100.4999999, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(formatBRL(cents)).toBe(intl.format(cents / 100));
    expect(plural(1.5, 'litro', 'litros')).toBe('1,5 litros');
    expect(plural(-1, 'dia', 'dias')).toBe('-1 dia');
  });
});
