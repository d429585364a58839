import { halfPriceCents } from './money.ts';

/**
 * Price rules by who the runner is (docs/decisions/0068): the pure part the server prices with and the
 * forms explain with. Each rule belongs to one category of an event.
 */

export const PRICE_RULE_AUDIENCES = ['estudante', 'professor', 'pcd', 'lista'] as const;
export type PriceRuleAudience = (typeof PRICE_RULE_AUDIENCES)[number];
export const PRICE_RULE_DISCOUNTS = ['meia', 'preco_fixo', 'gratis'] as const;
export type PriceRuleDiscount = (typeof PRICE_RULE_DISCOUNTS)[number];

/** How the audiences read on the forms and the desk. */
export const PRICE_RULE_AUDIENCE_LABELS: Record<PriceRuleAudience, string> = {
  estudante: 'Estudante',
  professor: 'Professor(a)',
  pcd: 'Pessoa com deficiência',
  lista: 'Lista do organizador',
};

/** What the rule asks of the runner, said on the form before they choose it. */
export const PRICE_RULE_PROOF_HINTS: Record<PriceRuleAudience, string> = {
  estudante: 'Envie uma foto ou PDF da carteira de identificação estudantil (CIE) válida.',
  professor: 'Envie uma foto ou PDF do contracheque ou da declaração da escola deste ano.',
  pcd: 'Envie uma foto ou PDF do laudo ou da carteira que comprove a deficiência.',
  lista: 'Envie o documento que o organizador pediu, se pediu.',
};

/** What the kit desk says of a special price's document: staff approved it, it is to check, none asked. */
export type ProofDocumentCheck = 'conferido' | 'conferir' | 'nao_pedido';

/**
 * The desk's word for a proof's status (the online card and the offline snapshot alike): approved is
 * `conferido`; pending or refused is `conferir`; no proof (the rule asks none) is `nao_pedido`.
 */
export function proofDocumentCheck(status: string | null | undefined): ProofDocumentCheck {
  if (!status) return 'nao_pedido';
  return status === 'aprovado' ? 'conferido' : 'conferir';
}

export interface PriceRuleTerms {
  discount: PriceRuleDiscount;
  fixedPriceCents: number | null;
}

/**
 * The price of a category under the rule, from the lot's full price: half (an odd centavo in the
 * runner's favour, as the 60+ half price), a fixed price (never above the lot's), or nothing.
 */
export function priceUnderRule(rule: PriceRuleTerms, fullPriceCents: number): number {
  switch (rule.discount) {
    case 'meia':
      return halfPriceCents(fullPriceCents);
    case 'gratis':
      return 0;
    case 'preco_fixo':
      return Math.min(fullPriceCents, Math.max(0, rule.fixedPriceCents ?? fullPriceCents));
  }
}

export interface PriceRuleCap {
  capPlaces: number | null;
  capPercent: number | null;
}

/**
 * How many places the rule may hold at most in a category of `capacity` places (sold and left): the
 * smaller of its cap in places and its per cent of the capacity, rounded down (40 % of 25 is 10; the
 * decree's 40 % never rounds up); null when it has neither.
 */
export function ruleCapacity(rule: PriceRuleCap, capacity: number): number | null {
  const caps: number[] = [];
  if (rule.capPlaces !== null) caps.push(rule.capPlaces);
  if (rule.capPercent !== null) caps.push(Math.floor((rule.capPercent * Math.max(0, capacity)) / 100));
  return caps.length ? Math.min(...caps) : null;
}
