import type { ProductPhoto, StockEntry } from '@passada/core/contracts/catalog';
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
 * Whether a picture shows the colour: staff chose it for the photo (`color_id`), or, for a picture no one
 * tagged, its file name carries the colour's name (".../camiseta-frente-coral.1a2b3c4d5e.svg").
 */
function shows(photo: ProductPhoto, color: Option): boolean {
  if (photo.color_id !== null) return photo.color_id === color.id;
  return (photo.url.split('/').pop() ?? '').includes(`-${colorSlug(color.name)}.`);
}

/**
 * The pictures for the chosen colour: its own first, in order, then those that show no colour of the
 * product (details, labels); other colours' pictures are left out. Without a colour, or when no picture
 * shows it, every picture is shown.
 */
export function photosForColor(
  photos: readonly ProductPhoto[],
  color: Option | null,
  colors: readonly Option[],
): ProductPhoto[] {
  if (!color) return [...photos];
  const own = photos.filter((p) => shows(p, color));
  if (own.length === 0) return [...photos];
  return [...own, ...photos.filter((p) => !colors.some((c) => shows(p, c)))];
}
