import { describe, expect, it } from 'vitest';
import { formatPhone, isValidDdd, isValidPhone, normalizePhone } from './phone.ts';

describe('phone', () => {
  it('accepts mobiles with a valid DDD starting with 9', () => {
    expect(isValidPhone('(85) 99999-9999')).toBe(true);
    expect(isValidPhone('11987654321')).toBe(true);
    expect(isValidPhone('+55 21 98765-4321')).toBe(true);
  });

  it('accepts landlines starting with 2 to 5', () => {
    expect(isValidPhone('(85) 3222-3333')).toBe(true);
    expect(isValidPhone('1123456789')).toBe(true);
  });

  it('refuses unknown DDDs, mobiles without the 9 and wrong lengths', () => {
    expect(isValidDdd('20')).toBe(false);
    expect(isValidPhone('(20) 99999-9999')).toBe(false);
    expect(isValidPhone('(10) 3222-3333')).toBe(false);
    expect(isValidPhone('85899999999')).toBe(false);
    expect(isValidPhone('8592223333')).toBe(false);
    expect(isValidPhone('859999999')).toBe(false);
    expect(isValidPhone('')).toBe(false);
  });

  it('normalises country code and trunk prefix', () => {
    expect(normalizePhone('+55 (85) 99999-9999')).toBe('85999999999');
    expect(normalizePhone('0 85 3222-3333')).toBe('8532223333');
  });

  it('formats as the spec shows', () => {
    expect(formatPhone('85999999999')).toBe('(85) 99999-9999');
    expect(formatPhone('8532223333')).toBe('(85) 3222-3333');
    expect(formatPhone('123')).toBe('123');
  });
});
