import bwipjs from 'bwip-js/node';

/** How the packing slip draws its barcode: bars 2 px per module, 12 mm tall, no text under them. */
export const CODE128_OPTIONS = { bcid: 'code128', scale: 2, height: 12 } as const;

/**
 * A Code 128 barcode of `text` as an SVG, drawn by bwip-js (the Barcode Writer in Pure PostScript's
 * encoder): what a scanner at the packing desk reads back is `text`. The human-readable number is
 * printed beside it by the page.
 */
export function code128Svg(text: string): string {
  return bwipjs.toSVG({ ...CODE128_OPTIONS, text });
}
