import { describe, expect, it } from 'vitest';
import { priceUnderRule, proofDocumentCheck, ruleCapacity } from './price-rules.ts';

describe('price rules', () => {
  it('prices half (an odd centavo in the runner’s favour), a fixed price never above the lot’s, or nothing', () => {
    expect(priceUnderRule({ discount: 'meia', fixedPriceCents: null }, 10_990)).toBe(5_495);
    expect(priceUnderRule({ discount: 'meia', fixedPriceCents: null }, 8_999)).toBe(4_499);
    expect(priceUnderRule({ discount: 'preco_fixo', fixedPriceCents: 3_000 }, 10_990)).toBe(3_000);
    expect(priceUnderRule({ discount: 'preco_fixo', fixedPriceCents: 20_000 }, 10_990)).toBe(10_990);
    expect(priceUnderRule({ discount: 'gratis', fixedPriceCents: null }, 10_990)).toBe(0);
  });

  it('caps at the smaller of places and per cent of the capacity, rounded down', () => {
    expect(ruleCapacity({ capPlaces: null, capPercent: 40 }, 25)).toBe(10);
    expect(ruleCapacity({ capPlaces: null, capPercent: 40 }, 24)).toBe(9);
    expect(ruleCapacity({ capPlaces: 5, capPercent: 40 }, 100)).toBe(5);
    expect(ruleCapacity({ capPlaces: 50, capPercent: 40 }, 100)).toBe(40);
    expect(ruleCapacity({ capPlaces: null, capPercent: null }, 100)).toBeNull();
    expect(ruleCapacity({ capPlaces: 0, capPercent: null }, 100)).toBe(0);
  });

  it('the desk asks for the document unless staff approved it; none when the rule asks none', () => {
    expect(proofDocumentCheck('aprovado')).toBe('conferido');
    expect(proofDocumentCheck('pendente')).toBe('conferir');
    expect(proofDocumentCheck('recusado')).toBe('conferir');
    expect(proofDocumentCheck(null)).toBe('nao_pedido');
    expect(proofDocumentCheck(undefined)).toBe('nao_pedido');
  });
});
