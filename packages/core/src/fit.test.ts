import { describe, expect, it } from 'vitest';
import { fitHint } from './fit.ts';

describe('fitHint', () => {
  it('says nothing below the minimum of size exchanges', () => {
    expect(fitHint({ delivered: 100, toBigger: 3, toSmaller: 1 }, 5)).toBeNull();
    expect(fitHint({ delivered: 0, toBigger: 0, toSmaller: 0 }, 0)).toBeNull();
  });

  it('runs small when twice as many went up as down and they are a tenth of the units', () => {
    expect(fitHint({ delivered: 40, toBigger: 6, toSmaller: 2 }, 5)).toMatchObject({
      verdict: 'pequeno',
      text: 'Costuma vestir pequeno: considere um tamanho acima. De 40 peças entregues, 6 foram trocadas por um tamanho maior e 2 por um menor.',
    });
    // Twice as many up, but under a tenth of 100 units: it fits.
    expect(fitHint({ delivered: 100, toBigger: 6, toSmaller: 2 }, 5)?.verdict).toBe('no_tamanho');
  });

  it('runs large the other way round, and fits when neither side leads', () => {
    expect(fitHint({ delivered: 30, toBigger: 1, toSmaller: 5 }, 5)).toMatchObject({
      verdict: 'grande',
      text: 'Costuma vestir grande: considere um tamanho abaixo. De 30 peças entregues, 1 foi trocada por um tamanho maior e 5 por um menor.',
    });
    expect(fitHint({ delivered: 30, toBigger: 4, toSmaller: 3 }, 5)?.verdict).toBe('no_tamanho');
  });
});

describe('fitHint with reviews', () => {
  it('counts reviews that found it small or large with the exchanges, and those that found it right against both', () => {
    const facts = { delivered: 20, toBigger: 1, toSmaller: 0 };
    expect(fitHint({ ...facts, answers: { pequeno: 3, no_tamanho: 1, grande: 1 } }, 5)).toMatchObject({
      verdict: 'pequeno',
      text: 'Costuma vestir pequeno: considere um tamanho acima. De 20 peças entregues, 1 foi trocada por um tamanho maior e 0 por um menor. 5 avaliações: 3 acharam pequeno, 1 no tamanho e 1 grande.',
    });
    // More found it right than small: it fits.
    expect(fitHint({ ...facts, answers: { pequeno: 2, no_tamanho: 6, grande: 0 } }, 5)?.verdict).toBe(
      'no_tamanho',
    );
    // Answers count toward the minimum: four signals are not enough for five.
    expect(fitHint({ ...facts, answers: { pequeno: 2, no_tamanho: 1, grande: 0 } }, 5)).toBeNull();
  });
});
