import type { ProductPhoto } from './contracts/catalog.ts';
import { stripAccents } from './text.ts';

/** A colour of a product, as its stock entries name it. */
export interface PhotoColor {
  id: number;
  name: string;
}

/** The colour as the picture file names spell it: "Verde-limão" → "verde-limao", "Azul céu" → "azul-ceu". */
function colorSlug(name: string): string {
  return stripAccents(name).toLowerCase().trim().replace(/\s+/g, '-');
}

/**
 * Whether a picture shows the colour: staff chose it for the photo (`color_id`), or, for a picture no one
 * tagged, its file name carries the colour's name (".../camiseta-frente-coral.1a2b3c4d5e.svg").
 */
function shows(photo: ProductPhoto, color: PhotoColor): boolean {
  if (photo.color_id !== null) return photo.color_id === color.id;
  return (photo.url.split('/').pop() ?? '').includes(`-${colorSlug(color.name)}.`);
}

/**
 * The pictures for the chosen colour: its own first, in order, then those that show no colour of the
 * product (details, labels); other colours' pictures are left out. Without a colour, or when no picture
 * shows it, every picture is shown. The product page and the order's thumbnail (the colour bought) both
 * follow it.
 */
export function photosForColor(
  photos: readonly ProductPhoto[],
  color: PhotoColor | null,
  colors: readonly PhotoColor[],
): ProductPhoto[] {
  if (!color) return [...photos];
  const own = photos.filter((p) => shows(p, color));
  if (own.length === 0) return [...photos];
  return [...own, ...photos.filter((p) => !colors.some((c) => shows(p, c)))];
}
