/** "1 dia útil", "2 dias úteis", "0 itens": the singular only for exactly one, as the shop writes it. */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${count.toLocaleString('pt-BR')} ${Math.abs(count) === 1 ? singular : pluralForm}`;
}
