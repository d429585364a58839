/**
 * How a garment fits, from the shop's own data (docs/decisions/0070, 0071): the units delivered, the ones
 * exchanged for another size of the same product (a P exchanged for an M says it runs small), and what
 * published reviews answered ("ficou pequeno / no tamanho / grande"). A verdict only past a minimum of
 * those signals, always with the numbers behind it.
 */

export type FitVerdict = 'pequeno' | 'no_tamanho' | 'grande';

export interface FitFacts {
  /** Units delivered to buyers (exchanged ones included). */
  delivered: number;
  /** Units exchanged for a bigger size of the same product. */
  toBigger: number;
  /** Units exchanged for a smaller size. */
  toSmaller: number;
  /** Published reviews' answers; none when absent. */
  answers?: Record<FitVerdict, number>;
}

export interface FitHint extends FitFacts {
  verdict: FitVerdict;
  /** The sentence the product page shows, numbers included. */
  text: string;
}

const NO_ANSWERS: Record<FitVerdict, number> = { pequeno: 0, no_tamanho: 0, grande: 0 };

/**
 * The verdict: "runs small" when the signals for a bigger size (exchanges to a bigger size, reviews that
 * found it small) are at least twice those for a smaller one, at least as many as the reviews that found it
 * right, and at least a tenth of the units delivered; "runs large" the other way round; otherwise it fits.
 * Null below `minSignals` exchanges and answers together: too few to say anything.
 */
export function fitHint(facts: FitFacts, minSignals: number): FitHint | null {
  const { delivered, toBigger, toSmaller } = facts;
  const answers = facts.answers ?? NO_ANSWERS;
  const up = toBigger + answers.pequeno;
  const down = toSmaller + answers.grande;
  const right = answers.no_tamanho;
  if (up + down + right < minSignals || delivered <= 0) return null;
  const leans = (one: number, other: number) => one >= 2 * other && one >= right && one * 10 >= delivered;
  const verdict: FitVerdict = leans(up, down) ? 'pequeno' : leans(down, up) ? 'grande' : 'no_tamanho';
  const headline = {
    pequeno: 'Costuma vestir pequeno: considere um tamanho acima.',
    grande: 'Costuma vestir grande: considere um tamanho abaixo.',
    no_tamanho: 'Costuma vestir no tamanho.',
  }[verdict];
  const units = (n: number) => (n === 1 ? '1 peça' : `${n} peças`);
  const said = answers.pequeno + answers.no_tamanho + answers.grande;
  const reviews = said
    ? ` ${said === 1 ? '1 avaliação' : `${said} avaliações`}: ${answers.pequeno} ${answers.pequeno === 1 ? 'achou' : 'acharam'} pequeno, ${answers.no_tamanho} no tamanho e ${answers.grande} grande.`
    : '';
  return {
    ...facts,
    verdict,
    text: `${headline} De ${units(delivered)} entregues, ${toBigger} ${toBigger === 1 ? 'foi trocada' : 'foram trocadas'} por um tamanho maior e ${toSmaller} por um menor.${reviews}`,
  };
}
