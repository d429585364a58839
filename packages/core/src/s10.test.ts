import { describe, expect, it } from 'vitest';
import { isS10Code, s10CheckDigit } from './s10.ts';

describe('UPU S10 check digit', () => {
  it("matches the standard's worked example: 47312482 → 9", () => {
    expect(s10CheckDigit('47312482')).toBe(9);
    expect(isS10Code('RA473124829BR')).toBe(true);
  });

  it('writes 10 as 0 and 11 as 5', () => {
    // 8 × 7 = 56, 56 mod 11 = 1: 11 − 1 = 10 → 0. A zero serial sums to 0: 11 − 0 = 11 → 5.
    expect(s10CheckDigit('00000008')).toBe(0);
    expect(s10CheckDigit('00000000')).toBe(5);
    expect(isS10Code('AA000000080BR')).toBe(true);
    expect(isS10Code('AA000000005BR')).toBe(true);
  });

  it('refuses a mistyped digit, two digits swapped and a wrong shape', () => {
    expect(isS10Code('AB123456785BR')).toBe(true);
    expect(isS10Code('AB123456789BR')).toBe(false);
    expect(isS10Code('AB123465785BR')).toBe(false);
    expect(isS10Code('AB12345678BR')).toBe(false);
    expect(isS10Code('ab123456785br')).toBe(false);
  });
});
