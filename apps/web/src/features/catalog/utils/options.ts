import type { StockEntry } from '@passada/core/contracts/catalog';
import { stripAccents } from '@passada/core/text';

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

/** The colour as the picture file names spell it: "Verde-limão" → "verde-limao", "Azul céu" → "azul-ceu". */
function colorSlug(name: string): string {
  return stripAccents(name).toLowerCase().trim().replace(/\s+/g, '-');
}

/**
 * The pictures of one colour, in order: a picture belongs to a colour when its file name carries the
 * colour's name (".../camiseta-frente-coral.1a2b3c4d5e.svg"). Without a colour, or when no picture
 * names it, every picture is shown.
 */
export function imagesForColor(images: readonly string[], colorName: string | null): string[] {
  if (!colorName) return [...images];
  const marker = `-${colorSlug(colorName)}.`;
  const own = images.filter((src) => (src.split('/').pop() ?? '').includes(marker));
  return own.length > 0 ? own : [...images];
}
