import { describe, expect, it } from 'vitest';
import { countdown } from './opening.ts';

const opensAt = '2027-03-01T12:00:00.000Z';
const before = (seconds: number) => Date.parse(opensAt) - seconds * 1000;

describe('countdown', () => {
  it('shows minutes and seconds under an hour, and never goes below zero', () => {
    expect(countdown(opensAt, before(65))).toBe('01:05');
    expect(countdown(opensAt, before(0.4))).toBe('00:00');
    expect(countdown(opensAt, before(-30))).toBe('00:00');
  });

  it('adds the hours from an hour and the days, singular for one, from a day', () => {
    expect(countdown(opensAt, before(3600))).toBe('01:00:00');
    expect(countdown(opensAt, before(86_400 + 2 * 3600 + 3 * 60 + 4))).toBe('1 dia e 02:03:04');
    expect(countdown(opensAt, before(3 * 86_400))).toBe('3 dias e 00:00:00');
  });
});
