import { describe, expect, it } from 'vitest';
import { stripAccents, toSearchText } from './text.ts';

describe('text', () => {
  it('strips Portuguese accents and cedilla', () => {
    expect(stripAccents('Café, Açaí, maçã, pão, você, órgão, Ü')).toBe(
      'Cafe, Acai, maca, pao, voce, orgao, U',
    );
  });

  it('makes search text lower-case, accent-free and single-spaced', () => {
    expect(toSearchText('Camiseta  CAFÉ', '\tSertão\n')).toBe('camiseta cafe sertao');
    expect(toSearchText('café')).toBe(toSearchText('CAFE'));
  });
});
