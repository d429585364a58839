/**
 * How a garment fits, from the shop's own data (docs/decisions/0070): the units delivered, and the ones
 * exchanged for another size of the same product (a P exchanged for an M says it runs small). A verdict
 * only past a minimum of exchanges, always with the numbers behind it.
 */

export type FitVerdict = 'pequeno' | 'no_tamanho' | 'grande';

export interface FitFacts {
  /** Units delivered to buyers (exchanged ones included). */
  delivered: number;
  /** Units exchanged for a bigger size of the same product. */
  toBigger: number;
  /** Units exchanged for a smaller size. */
  toSmaller: number;
}

export interface FitHint extends FitFacts {
  verdict: FitVerdict;
  /** The sentence the product page shows, numbers included. */
  text: string;
}

/**
 * The verdict: "runs small" when at least twice as many units went to a bigger size as to a smaller one
 * and those are at least a tenth of what was delivered; "runs large" the other way round; otherwise it
 * fits. Null below `minExchanges` size exchanges: too few to say anything.
 */
export function fitHint(facts: FitFacts, minExchanges: number): FitHint | null {
  const { delivered, toBigger, toSmaller } = facts;
  if (toBigger + toSmaller < minExchanges || delivered <= 0) return null;
  const leans = (one: number, other: number) => one >= 2 * other && one * 10 >= delivered;
  const verdict: FitVerdict = leans(toBigger, toSmaller)
    ? 'pequeno'
    : leans(toSmaller, toBigger)
      ? 'grande'
      : 'no_tamanho';
  const headline = {
    pequeno: 'Costuma vestir pequeno: considere um tamanho acima.',
    grande: 'Costuma vestir grande: considere um tamanho abaixo.',
    no_tamanho: 'Costuma vestir no tamanho.',
  }[verdict];
  const units = (n: number) => (n === 1 ? '1 peça' : `${n} peças`);
  return {
    ...facts,
    verdict,
    text: `${headline} De ${units(delivered)} entregues, ${toBigger} ${toBigger === 1 ? 'foi trocada' : 'foram trocadas'} por um tamanho maior e ${toSmaller} por um menor.`,
  };
}
