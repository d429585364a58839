import { describe, expect, it } from 'vitest';
import { isSoldOut, stockState, stockText } from './stock.ts';

const base = { chosen: true, pending: false, failed: false, quantity: undefined as number | undefined };

describe('product stock state (spec §4)', () => {
  it('says nothing until both colour and size are chosen', () => {
    expect(stockText(stockState({ ...base, chosen: false, quantity: 5 }))).toBe('');
  });

  it('shows Verificando... while the check runs', () => {
    expect(stockText(stockState({ ...base, pending: true, quantity: 5 }))).toBe('Verificando...');
    expect(stockText(stockState(base))).toBe('Verificando...');
  });

  it('names sold out, the last unit and N units', () => {
    const zero = stockState({ ...base, quantity: 0 });
    expect(stockText(zero)).toBe('ESGOTADO!');
    expect(isSoldOut(zero)).toBe(true);
    expect(stockText(stockState({ ...base, quantity: 1 }))).toBe('Última unidade!');
    const many = stockState({ ...base, quantity: 22 });
    expect(stockText(many)).toBe('22 unidades disponíveis');
    expect(isSoldOut(many)).toBe(false);
  });

  it('does not call a failed check sold out', () => {
    const failed = stockState({ ...base, failed: true });
    expect(isSoldOut(failed)).toBe(false);
    expect(stockText(failed)).not.toBe('ESGOTADO!');
  });
});
