import { createHash } from 'node:crypto';
import type { RasterFormat } from '@passada/core/images';
import sharp from 'sharp';
import {
  type GarmentKind,
  garmentKinds,
  type ImageView,
  isPaletteColor,
  type PaletteColor,
} from './product-drawing.ts';
import { IMAGE_WIDTH, renderProductSvg } from './product-svg.ts';

/**
 * Product pictures drawn as SVG from three facts: the garment kind, the view and the colour. There is no
 * photo shoot (and no internet at install time), so the demo catalogue's images are generated; the URL
 * carries those facts plus a hash of the drawing, so the same URL always means the same bytes and can be
 * cached for a year (see catalog.routes.ts).
 */

export {
  type GarmentKind,
  garmentKinds,
  type ImageView,
  imageViews,
  isPaletteColor,
  type PaletteColor,
  palette,
} from './product-drawing.ts';
export { IMAGE_HEIGHT, IMAGE_WIDTH, renderProductSvg } from './product-svg.ts';

const MEDIA_PREFIX = '/api/media/products/';
const FILE_PATTERN =
  /^([a-z-]+?)-(frente|costas)-([a-z-]+)\.([0-9a-f]{10})(?:\.svg|-(200|400|800)\.(webp|avif))$/;

export interface ProductImage {
  svg: string;
  hash: string;
  url: string;
}

const cache = new Map<string, ProductImage>();

/** The drawing with its content-hashed URL; memoised, as there are only a few hundred possible. */
export function productImage(kind: GarmentKind, view: ImageView, color: PaletteColor): ProductImage {
  const key = `${kind}-${view}-${color}`;
  let image = cache.get(key);
  if (!image) {
    const svg = renderProductSvg(kind, view, color);
    const hash = createHash('sha256').update(svg).digest('hex').slice(0, 10);
    image = { svg, hash, url: `${MEDIA_PREFIX}${key}.${hash}.svg` };
    cache.set(key, image);
  }
  return image;
}

/**
 * Reads a media file name back into the drawing it names, or null when it names none: the SVG
 * itself, or one of its raster copies (`raster`, widths DRAWING_WIDTHS of @passada/core/images).
 */
export function parseImageFileName(file: string): {
  kind: GarmentKind;
  view: ImageView;
  color: PaletteColor;
  hash: string;
  raster?: { width: number; format: RasterFormat };
} | null {
  const m = FILE_PATTERN.exec(file);
  if (!m) return null;
  const [, kind, view, color, hash, width, format] = m;
  if (!kind || !view || !color || !hash) return null;
  if (!(garmentKinds as readonly string[]).includes(kind) || !isPaletteColor(color)) return null;
  const raster = width && format ? { width: Number(width), format: format as RasterFormat } : undefined;
  return { kind: kind as GarmentKind, view: view as ImageView, color, hash, ...(raster ? { raster } : {}) };
}

/** Raster copies already drawn, oldest first; bounded, as each is a few kilobytes. */
const rasterCache = new Map<string, Buffer>();
const RASTER_CACHE_ENTRIES = 500;

/**
 * A WebP or AVIF copy of a drawing at one width, for phones that would rather not draw SVG: made with
 * sharp on first request and kept (the address carries the drawing's hash, so it never changes).
 */
export async function productImageRaster(
  image: ProductImage,
  width: number,
  format: RasterFormat,
): Promise<Buffer> {
  const key = `${image.url}-${width}.${format}`;
  const cached = rasterCache.get(key);
  if (cached) return cached;
  // The drawing is IMAGE_WIDTH wide at 72 dpi: a matching density draws it sharp at the asked width.
  const drawn = sharp(Buffer.from(image.svg), { density: (72 * width) / IMAGE_WIDTH }).resize(width);
  const buffer = await (format === 'avif'
    ? drawn.avif({ quality: 55, effort: 2 })
    : drawn.webp({ quality: 82 })
  ).toBuffer();
  rasterCache.set(key, buffer);
  if (rasterCache.size > RASTER_CACHE_ENTRIES) rasterCache.delete(rasterCache.keys().next().value!);
  return buffer;
}
