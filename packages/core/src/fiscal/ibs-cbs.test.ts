import { describe, expect, it } from 'vitest';
import { formatRate, ibsCbsOfItem, ibsCbsOfNota, parseRateBR, taxOf } from './ibs-cbs.ts';
import {
  ibsCbsRatesOn,
  ibsCbsRequired,
  missingRatesReason,
  nfseRuleFor,
  reformScheduleFor,
} from './reform-rules.ts';

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

  it('2027: IBS 0.05 % + 0.05 % (LC 214/2025, art. 344) and the CBS staff entered from the Senate’s resolution; 2028 unknown', () => {
    expect(ibsCbsRatesOn('2027-01-01', 88_000)).toEqual({ ibsUf: 500, ibsMun: 500, cbs: 88_000 });
    expect(ibsCbsRatesOn('2027-12-31', 88_000)).toEqual({ ibsUf: 500, ibsMun: 500, cbs: 88_000 });
    expect(ibsCbsRatesOn('2026-12-31', 88_000)).toEqual({ ibsUf: 1000, ibsMun: 0, cbs: 9000 });
    expect(ibsCbsRatesOn('2028-01-01', 88_000)).toBeNull();
    expect(missingRatesReason('2027-03-01')).toContain('fixada por resolução do Senado Federal');
    expect(missingRatesReason('2028-03-01')).toBe(
      'A nota não foi emitida: as alíquotas de IBS e CBS de 2028 ainda não estão na tabela da loja.',
    );
  });

  it('reads a percentage as people type it', () => {
    expect(parseRateBR('8,8')).toBe(88_000);
    expect(parseRateBR('8.8000')).toBe(88_000);
    expect(parseRateBR('0,9')).toBe(9000);
    expect(parseRateBR('12,3456')).toBe(123_456);
    for (const bad of ['', '8,8%', '8,88888', 'abc', '101', '-1']) expect(parseRateBR(bad)).toBeNull();
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

/**
 * The technical note's own rules and its one worked example (NT 2025.002-RTC v1.31, §7 "Regras de
 * Validação"; docs/decisions/0059, later), through the one computing function.
 */
describe('NT 2025.002-RTC v1.31: its rules and worked example', () => {
  it('UB28-10: the example’s effective rate, 10 × (1 − 0,4) × (1 − 0,05) = 5,7000 %, taxes vBC 1.000,00 at 57,00 (UB35-10, obs. 2)', () => {
    // The rate with four decimals, as the layout writes pAliqEfet; the value is vBC × pAliqEfet / 100.
    const effective = Math.round(100_000 * (1 - 0.4) * (1 - 0.05));
    expect(formatRate(effective)).toBe('5.7000');
    expect(ibsCbsOfItem(100_000, { ibsUf: effective, ibsMun: 0, cbs: 0 })).toMatchObject({
      ibsUfCents: 5700,
      ibsCents: 5700,
    });
  });

  it('UB35-10, UB54-10 and UB67-10: each value is vBC × p / 100, within the 0,01 the note tolerates', () => {
    for (const base of [1, 49, 50, 99, 12_990, 25_981, 99_999, 1_234_567]) {
      const t = ibsCbsOfItem(base, RATES_2026);
      expect(Math.abs(t.ibsUfCents - (base * 0.1) / 100)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(t.cbsCents - (base * 0.9) / 100)).toBeLessThanOrEqual(0.5);
      // UB54a: vIBS is the sum of vIBSUF and vIBSMun.
      expect(t.ibsCents).toBe(t.ibsUfCents + t.ibsMunCents);
    }
    // R$ 259,81 × 0,9 % = 2,33829 → 2,34; × 0,1 % = 0,25981 → 0,26.
    expect(ibsCbsOfItem(25_981, RATES_2026)).toMatchObject({ ibsUfCents: 26, cbsCents: 234 });
  });

  it('UB16-10: the base is vProd + vFrete − vDesc (no ICMS, PIS or COFINS highlighted); W35-10 ff.: totals are the items’ sums', () => {
    // Three items of R$ 33,33, R$ 33,33 and R$ 33,34, R$ 10,00 of freight and R$ 5,00 of discount: the
    // shares of freight and discount add up to the nota's, and each base is its item's value plus its
    // freight less its discount.
    const items = [{ totalCents: 3333 }, { totalCents: 3333 }, { totalCents: 3334 }];
    const nota = ibsCbsOfNota(items, RATES_2026, { shippingCents: 1000, discountCents: 500 });
    expect(nota.items.map((i) => i.shippingCents).reduce((a, b) => a + b)).toBe(1000);
    expect(nota.items.map((i) => i.discountCents).reduce((a, b) => a + b)).toBe(500);
    for (const [n, it] of nota.items.entries())
      expect(it.baseCents).toBe(items[n]!.totalCents + it.shippingCents - it.discountCents);
    expect(nota.totals.baseCents).toBe(10_500);
    expect(nota.totals).toEqual({
      baseCents: nota.items.reduce((s, i) => s + i.baseCents, 0),
      ibsUfCents: nota.items.reduce((s, i) => s + i.ibsUfCents, 0),
      ibsMunCents: 0,
      ibsCents: nota.items.reduce((s, i) => s + i.ibsCents, 0),
      cbsCents: nota.items.reduce((s, i) => s + i.cbsCents, 0),
    });
    // Bases 34,99, 35,00 and 35,01: CBS 0,31491 → 0,31, 0,315 → 0,32, 0,31509 → 0,32; vCBS of the
    // totals is their sum, 0,95.
    expect(nota.items.map((i) => i.baseCents)).toEqual([3499, 3500, 3501]);
    expect(nota.items.map((i) => i.cbsCents)).toEqual([31, 32, 32]);
    expect(nota.totals.cbsCents).toBe(95);
  });
});
