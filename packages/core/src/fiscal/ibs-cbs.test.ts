import { describe, expect, it } from 'vitest';
import { formatRate, ibsCbsOfItem, ibsCbsOfNota, taxOf } from './ibs-cbs.ts';
import { ibsCbsRatesOn, ibsCbsRequired, nfseRuleFor, reformScheduleFor } from './reform-rules.ts';

const RATES_2026 = { ibsUf: 1000, ibsMun: 0, cbs: 9000 };

describe('IBS and CBS of an item', () => {
  it('a base of R$ 1.500,00 at the 2026 rates: IBS of the state R$ 1,50, of the city 0, CBS R$ 13,50', () => {
    // The case SEFAZ answers with 318 when vIBSUF is written as 150.00 for pIBSUF 0.1000: the rate is a
    // percentage, vIBSUF = vBC × pIBSUF / 100.
    expect(ibsCbsOfItem(150_000, RATES_2026)).toEqual({
      baseCents: 150_000,
      ibsUfCents: 150,
      ibsMunCents: 0,
      ibsCents: 150,
      cbsCents: 1350,
    });
  });

  it('the layout example: vBC 800.00 at 1.50 %, 2.00 % and 3.00 % gives 12.00, 16.00 and 24.00', () => {
    expect(ibsCbsOfItem(80_000, { ibsUf: 15_000, ibsMun: 20_000, cbs: 30_000 })).toMatchObject({
      ibsUfCents: 1200,
      ibsMunCents: 1600,
      ibsCents: 2800,
      cbsCents: 2400,
    });
  });

  it('rounds each value to the centavo, half up: 129,90 × 0,9 % = 1,1691 → 1,17; × 0,1 % = 0,1299 → 0,13', () => {
    expect(taxOf(12_990, 9000)).toBe(117);
    expect(taxOf(12_990, 1000)).toBe(13);
    // 0,50 × 1 % = 0,005: exactly half a centavo goes up.
    expect(taxOf(50, 10_000)).toBe(1);
    expect(taxOf(49, 10_000)).toBe(0);
    expect(taxOf(-50, 10_000)).toBe(-1);
  });

  it('writes rates with four decimals, as pIBSUF and pCBS', () => {
    expect(formatRate(1000)).toBe('0.1000');
    expect(formatRate(9000)).toBe('0.9000');
    expect(formatRate(0)).toBe('0.0000');
  });
});

describe('a nota', () => {
  it('spreads freight and discount over the items and totals the items', () => {
    const nota = ibsCbsOfNota([{ totalCents: 12_990 }, { totalCents: 8_990 }], RATES_2026, {
      shippingCents: 2_500,
      discountCents: 2_198,
    });
    expect(nota.items.map((i) => i.shippingCents)).toEqual([1477, 1023]);
    expect(nota.items.map((i) => i.discountCents)).toEqual([1299, 899]);
    expect(nota.totals.baseCents).toBe(12_990 + 8_990 + 2_500 - 2_198);
    expect(nota.totals.cbsCents).toBe(nota.items[0]!.cbsCents + nota.items[1]!.cbsCents);
  });
});

describe('the rules by regime and date', () => {
  it('the regime normal carries the group from 05/01/2026; Simples and MEI from 2027 (LC 214/2025, art. 348)', () => {
    expect(ibsCbsRequired(3, '2026-01-04')).toBe(false);
    expect(ibsCbsRequired(3, '2026-01-05')).toBe(true);
    for (const crt of [1, 2, 4] as const) {
      expect(ibsCbsRequired(crt, '2026-12-31')).toBe(false);
      expect(ibsCbsRequired(crt, '2027-01-01')).toBe(true);
    }
  });

  it('2026 rates: CBS 0.9 %, IBS 0.1 % of the state and 0 of the city; 2027 unknown until the CBS is fixed', () => {
    expect(ibsCbsRatesOn('2026-12-02')).toEqual({ ibsUf: 1000, ibsMun: 0, cbs: 9000 });
    expect(ibsCbsRatesOn('2025-12-31')).toBeNull();
    expect(ibsCbsRatesOn('2027-01-01')).toBeNull();
  });

  it('the screen: what applies to each regime today and from which date the next', () => {
    const simples = reformScheduleFor(1, '2026-12-02');
    expect(simples.current.map((s) => s.from)).toEqual(['2026-01-01']);
    expect(simples.next?.label).toBe('01/01/2027');
    const normal = reformScheduleFor(3, '2026-12-02');
    expect(normal.current.map((s) => s.from)).toEqual(['2026-01-01', '2026-01-05']);
    expect(normal.next?.stages).toHaveLength(1);
  });

  it('per-city NFS-e rules: Natal asks the taker address and the NBS; a city not listed, the national layout', () => {
    expect(nfseRuleFor('2408102')).toMatchObject({ takerAddress: true, nbs: true });
    expect(nfseRuleFor('2304400')).toEqual({
      takerAddress: false,
      cnae: false,
      municipalCode: false,
      nbs: false,
    });
  });
});
