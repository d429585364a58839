import { formatIntegerBR } from './digits.ts';

/** "1 dia útil", "2 dias úteis", "0 itens": the singular only for exactly one, as the shop writes it. */
export function plural(count: number, singular: string, pluralForm: string): string {
  const shown = Number.isSafeInteger(count) ? formatIntegerBR(count) : count.toLocaleString('pt-BR');
  return `${shown} ${Math.abs(count) === 1 ? singular : pluralForm}`;
}
