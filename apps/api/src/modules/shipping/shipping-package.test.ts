import { describe, expect, it } from 'vitest';
import { combinePackages, TYPICAL_PACKAGE } from './shipping-package.ts';

describe('combining cart items into one box', () => {
  it('uses the typical package for an empty cart', () => {
    expect(combinePackages([])).toEqual(TYPICAL_PACKAGE);
  });

  it('adds weights and stacks volumes on the largest footprint', () => {
    const shirt = { weightGrams: 180, lengthCm: 30, widthCm: 22, heightCm: 3 };
    const bottle = { weightGrams: 190, lengthCm: 9, widthCm: 26, heightCm: 9 };
    expect(combinePackages([{ pkg: shirt, quantity: 3 }])).toEqual({
      weightGrams: 540,
      lengthCm: 30,
      widthCm: 22,
      heightCm: 9,
    });
    const mixed = combinePackages([
      { pkg: shirt, quantity: 1 },
      { pkg: bottle, quantity: 2 },
    ]);
    expect(mixed.weightGrams).toBe(560);
    expect([mixed.lengthCm, mixed.widthCm]).toEqual([30, 22]);
    // 1980 + 2 × 2106 cm³ over 30 × 22 cm.
    expect(mixed.heightCm).toBe(Math.ceil((1980 + 2 * 2106) / 660));
  });
});
