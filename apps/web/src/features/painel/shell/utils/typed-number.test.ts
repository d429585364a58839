import { describe, expect, it } from 'vitest';
import { amountText, numberText, typedNumber } from './typed-number.ts';

describe('what staff type in an amount or count field', () => {
  it('reads a decimal comma, thousands dots, and a decimal point typed without a comma', () => {
    expect(typedNumber('79,90')).toBe(79.9);
    expect(typedNumber('1.234,56')).toBe(1234.56);
    // A price typed the English way is R$ 79,90, not R$ 7.990,00.
    expect(typedNumber('79.90')).toBe(79.9);
    expect(typedNumber(' 12 ')).toBe(12);
  });

  it('answers null for nothing or something unreadable, so the server names the field', () => {
    expect(typedNumber('')).toBeNull();
    expect(typedNumber('   ')).toBeNull();
    expect(typedNumber('doze')).toBeNull();
  });

  it('shows stored values back as the form expects them', () => {
    expect(amountText(89.9)).toBe('89,90');
    expect(numberText(null)).toBe('');
    expect(numberText(150)).toBe('150');
  });
});
