import { apportion, ibsCbsOfNota } from '@passada/core/fiscal/ibs-cbs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** The IBS/CBS computation of every nota (packages/core/src/fiscal/ibs-cbs.ts), over any cart. */
describe('IBS and CBS of any nota', () => {
  it('property: totals are the sums of the items, each item within half a centavo of base × rate', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.record({
          ibsUf: fc.integer({ min: 0, max: 300_000 }),
          ibsMun: fc.integer({ min: 0, max: 300_000 }),
          cbs: fc.integer({ min: 0, max: 300_000 }),
        }),
        (values, shipping, discountPct, rates) => {
          const products = values.reduce((s, v) => s + v, 0);
          const discount = Math.floor((products * discountPct) / 100);
          const nota = ibsCbsOfNota(
            values.map((totalCents) => ({ totalCents })),
            rates,
            { shippingCents: shipping, discountCents: discount },
          );
          const sum = (k: 'baseCents' | 'ibsUfCents' | 'ibsMunCents' | 'ibsCents' | 'cbsCents') =>
            nota.items.reduce((s, i) => s + i[k], 0);
          expect(nota.totals).toEqual({
            baseCents: sum('baseCents'),
            ibsUfCents: sum('ibsUfCents'),
            ibsMunCents: sum('ibsMunCents'),
            ibsCents: sum('ibsCents'),
            cbsCents: sum('cbsCents'),
          });
          expect(nota.totals.baseCents).toBe(products + shipping - discount);
          expect(nota.items.reduce((s, i) => s + i.shippingCents, 0)).toBe(shipping);
          expect(nota.items.reduce((s, i) => s + i.discountCents, 0)).toBe(discount);
          for (const i of nota.items) {
            expect(i.ibsCents).toBe(i.ibsUfCents + i.ibsMunCents);
            for (const [v, r] of [
              [i.ibsUfCents, rates.ibsUf],
              [i.ibsMunCents, rates.ibsMun],
              [i.cbsCents, rates.cbs],
            ] as const)
              expect(Math.abs(v - (i.baseCents * r) / 1_000_000)).toBeLessThanOrEqual(0.5);
          }
          // The whole nota stays within the NT's tolerance per item of base × rate of the total base.
          expect(
            Math.abs(nota.totals.cbsCents - (nota.totals.baseCents * rates.cbs) / 1_000_000),
          ).toBeLessThanOrEqual(values.length * 0.5);
        },
      ),
    );
  });

  it('apportion never loses or invents a centavo', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        (amount, weights) => {
          const shares = apportion(amount, weights);
          const total = weights.reduce((s, w) => s + w, 0);
          expect(shares.reduce((s, v) => s + v, 0)).toBe(total > 0 ? amount : 0);
          for (const s of shares) expect(s).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
