import { describe, expect, it } from 'vitest';
import { plural } from './plural.ts';

describe('plural', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(plural(1, 'dia útil', 'dias úteis')).toBe('1 dia útil');
    expect(plural(2, 'dia útil', 'dias úteis')).toBe('2 dias úteis');
    expect(plural(0, 'item', 'itens')).toBe('0 itens');
    expect(plural(1200, 'vaga', 'vagas')).toBe('1.200 vagas');
  });
});
