import { describe, expect, it } from 'vitest';
import { escapeXml, stripAccents, toSearchText } from './text.ts';

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

describe('escapeXml', () => {
  it('escapes the characters that would break SVG markup', () => {
    expect(escapeXml('Corrida "A&B" <10 km>')).toBe('Corrida &quot;A&amp;B&quot; &lt;10 km&gt;');
  });
});
