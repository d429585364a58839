import type { StockEntry } from '@passada/core/contracts/catalog';

export interface Option {
  id: number;
  name: string;
  hex?: string;
}

const SIZE_ORDER = ['PP', 'P', 'M', 'G', 'GG', 'XG', 'Único'];

/** The colours and sizes a product is offered in, from its stock entries, each once. */
export function productOptions(stock: StockEntry[]): { colors: Option[]; sizes: Option[] } {
  const colors = new Map<number, Option>();
  const sizes = new Map<number, Option>();
  for (const entry of stock) {
    if (!colors.has(entry.color.id)) colors.set(entry.color.id, entry.color);
    if (!sizes.has(entry.size.id)) sizes.set(entry.size.id, entry.size);
  }
  const rank = (name: string) => {
    const i = SIZE_ORDER.indexOf(name);
    return i === -1 ? SIZE_ORDER.length : i;
  };
  return {
    colors: [...colors.values()],
    sizes: [...sizes.values()].sort((a, b) => rank(a.name) - rank(b.name) || a.id - b.id),
  };
}
