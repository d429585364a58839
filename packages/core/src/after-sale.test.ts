import { describe, expect, it } from 'vitest';
import {
  afterSaleRulesText,
  cancellationQuote,
  DEFAULT_AFTER_SALE_RULES,
  eventStart,
  referralOn,
  referralRebateCents,
} from './after-sale.ts';

const start = eventStart('2026-12-10', '06:00');
const purchasedAt = new Date('2026-12-01T12:00:00Z');
const rules = DEFAULT_AFTER_SALE_RULES;

describe('cancellationQuote', () => {
  it('returns everything within 7 days of the purchase and 48 hours before the start', () => {
    const now = new Date('2026-12-08T09:00:00Z'); // exactly 48 h before 06:00 −03:00 on the 10th
    expect(cancellationQuote(rules, { paidCents: 12000, purchasedAt, start, now })).toEqual({
      allowed: true,
      refundCents: 12000,
      keptCents: 0,
      withdrawal: true,
    });
  });

  it('one minute too close to the start follows the rule after the window', () => {
    const now = new Date('2026-12-08T09:01:00Z');
    expect(cancellationQuote(rules, { paidCents: 12000, purchasedAt, start, now }).allowed).toBe(false);
    const withFee = { ...rules, cancelAfterWindow: 'taxa' as const, cancelFeeCents: 2000 };
    expect(cancellationQuote(withFee, { paidCents: 12000, purchasedAt, start, now })).toMatchObject({
      refundCents: 10000,
      keptCents: 2000,
    });
  });

  it('a percentage kept, a fee larger than what was paid, and nothing after the start', () => {
    const now = new Date('2026-12-09T12:00:00Z');
    const pct = { ...rules, cancelAfterWindow: 'percentual' as const, cancelKeptPercent: 25 };
    expect(cancellationQuote(pct, { paidCents: 10001, purchasedAt, start, now })).toMatchObject({
      refundCents: 7501,
      keptCents: 2500,
    });
    const big = { ...rules, cancelAfterWindow: 'taxa' as const, cancelFeeCents: 50000 };
    expect(cancellationQuote(big, { paidCents: 3000, purchasedAt, start, now })).toMatchObject({
      refundCents: 0,
      keptCents: 3000,
    });
    expect(cancellationQuote(big, { paidCents: 3000, purchasedAt, start, now: start }).allowed).toBe(false);
  });
});

describe('afterSaleRulesText', () => {
  it('says the defaults in Portuguese, with the registration deadline for the changes', () => {
    const text = afterSaleRulesText(rules, '2026-12-05');
    expect(text[0]).toContain('7 dias da compra');
    expect(text[0]).toContain('48 horas');
    expect(text[1]).toContain('até 05/12/2026, sem taxa');
    // No category has a waitlist until the organiser turns one on.
    expect(text[4]).toBe('Lista de espera: não há neste evento.');
  });

  it('names the categories with a waitlist and how long an offered place is held', () => {
    const text = afterSaleRulesText(
      { ...rules, waitlistCategoryIds: [3, 4], waitlistOfferHours: 12 },
      '2026-12-05',
      ['5 km', '10 km'],
    );
    expect(text[4]).toContain('nas categorias 5 km, 10 km, quando esgotadas');
    expect(text[4]).toContain('reservada por 12 horas');
    expect(text[4]).toContain('passa ao próximo');
  });

  it('says one hour in the singular', () => {
    const text = afterSaleRulesText(
      { ...rules, cancelMinHours: 1, waitlistCategoryIds: [3], waitlistOfferHours: 1 },
      '2026-12-05',
    );
    expect(text[0]).toContain('com pelo menos 1 hora de antecedência');
    expect(text[4]).toContain('reservada por 1 hora.');
    expect(text.join(' ')).not.toContain('1 horas');
  });
});

describe('referral rebates (docs/decisions/0086)', () => {
  it('are on only with a minimum and a percentage, and give back the percentage rounded to the cent, never more than paid', () => {
    expect(referralOn({ referralMin: null, referralPercent: 20 })).toBe(false);
    expect(referralOn({ referralMin: 3, referralPercent: 0 })).toBe(false);
    expect(referralOn({ referralMin: 3, referralPercent: 20 })).toBe(true);
    expect(referralRebateCents(10_990, 20)).toBe(2198);
    // 15 % of R$ 89,93 is 1.348,95 centavos: 1.349.
    expect(referralRebateCents(8993, 15)).toBe(1349);
    expect(referralRebateCents(10_990, 100)).toBe(10_990);
    expect(referralRebateCents(10_990, 150)).toBe(10_990);
    expect(referralRebateCents(0, 50)).toBe(0);
  });
});
