import { escapeXml } from './text.ts';

/**
 * The responsive copies of a product or event image, for `srcset`: the generated drawings
 * (`/api/media/products/<name>.<hash>.svg`) have WebP and AVIF copies at DRAWING_WIDTHS, drawn by the
 * server on request; uploaded photos (`/api/media/uploads/<folder>/<key>-800.webp`) were stored at
 * 400, 800 and 1200 px in both formats. Any other address has no copies (null).
 */
export const DRAWING_WIDTHS = [200, 400, 800] as const;
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
export type RasterFormat = 'avif' | 'webp';

export interface ImageSources {
  avif: string;
  webp: string;
}

const DRAWING = /^(\/api\/media\/products\/[a-z-]+-(?:frente|costas)-[a-z-]+\.[0-9a-f]{10})\.svg$/;
const PHOTO = /^(\/api\/media\/uploads\/[a-z]+\/[a-z0-9]{20})-800\.webp$/;

export function imageSources(url: string): ImageSources | null {
  const drawing = DRAWING.exec(url);
  const photo = drawing ? null : PHOTO.exec(url);
  if (!drawing && !photo) return null;
  const srcset = (format: RasterFormat) =>
    drawing
      ? DRAWING_WIDTHS.map((w) => `${drawing[1]}-${w}.${format} ${w}w`).join(', ')
      : PHOTO_WIDTHS.map((w) => `${photo![1]}-${w}.${format} ${w}w`).join(', ');
  return { avif: srcset('avif'), webp: srcset('webp') };
}

/**
 * The smallest raster copy of an image (WebP), for a thumbnail in an e-mail: mail programs draw no SVG.
 * Any other address is given back as it is.
 */
export function smallestRaster(url: string): string {
  const drawing = DRAWING.exec(url);
  if (drawing) return `${drawing[1]}-${DRAWING_WIDTHS[0]}.webp`;
  const photo = PHOTO.exec(url);
  return photo ? `${photo[1]}-${PHOTO_WIDTHS[0]}.webp` : url;
}

/** The product page's main image: half of the 1152 px column from 768 px up, the whole screen below. */
export const PRODUCT_MAIN_IMAGE_SIZES = '(min-width: 1152px) 560px, (min-width: 768px) 50vw, 100vw';

/**
 * `<link rel="preload">` for a page's largest image, sent in the page's head so the phone fetches it
 * while it still reads the HTML: its AVIF copies at the displayed `sizes` when it has them (the copy
 * the `<picture>` then picks), else the file itself (also when no `sizes` is given: a plain `<img>`).
 */
export function imagePreloadLink(src: string, sizes?: string): string {
  const sources = sizes ? imageSources(src) : null;
  const responsive = sources
    ? ` imagesrcset="${escapeXml(sources.avif)}" imagesizes="${escapeXml(sizes!)}" type="image/avif"`
    : '';
  return `<link rel="preload" as="image" href="${escapeXml(src)}"${responsive} fetchpriority="high">`;
}
