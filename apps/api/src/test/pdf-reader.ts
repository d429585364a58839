import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { extractImages, extractText } from 'unpdf';

/**
 * A PDF read back by an independent reader (Mozilla's pdf.js, through unpdf): the text of each page and
 * a page's images as pixels. pdf.js copies image data with `ArrayBuffer.prototype.transferToFixedLength`
 * (Node 21 and later); on an older Node the same copy is made here, without detaching the original.
 */
if (!('transferToFixedLength' in ArrayBuffer.prototype)) {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    value(this: ArrayBuffer, length = this.byteLength) {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    },
  });
}

/** Each page's text, in order. */
export async function pdfPages(pdf: Uint8Array | Buffer): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: false });
  return text;
}

/** The images drawn on a page (1-based), as pixels. */
export const pdfImages = (pdf: Uint8Array | Buffer, page: number) => extractImages(new Uint8Array(pdf), page);

/** The text of the QR code drawn on a page (1-based), read from the image's pixels as a phone reads it. */
export async function pdfQrCode(pdf: Uint8Array | Buffer, page: number): Promise<string> {
  for (const { data, width, height, channels } of await pdfImages(pdf, page)) {
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 3; c++) rgba[i * 4 + c] = data[i * channels + (channels >= 3 ? c : 0)]!;
      rgba[i * 4 + 3] = channels === 4 ? data[i * 4 + 3]! : 255;
    }
    const code = jsQR(rgba, width, height);
    if (code) return code.data;
  }
  throw new Error(`nenhum QR code legível na página ${page}`);
}

/**
 * The bar and space widths along the middle row of a barcode image, in modules of `moduleWidth` pixels,
 * from the first bar to the last (the quiet zones left out): what a scanner's line reads.
 */
export function barWidthsOf(
  image: { data: Uint8ClampedArray; width: number; height: number; channels: number },
  moduleWidth: number,
): number[] {
  const { data, width, height, channels } = image;
  const row = Math.floor(height / 2) * width;
  // A bar is an opaque dark pixel: bwip-js draws on a transparent background (alpha 0) by default.
  const dark = (x: number) => {
    const at = (row + x) * channels;
    return data[at]! < 128 && (channels !== 4 || data[at + 3]! >= 128);
  };
  const runs: number[] = [];
  let x = 0;
  while (x < width && !dark(x)) x += 1;
  while (x < width) {
    const colour = dark(x);
    let run = 0;
    while (x < width && dark(x) === colour) {
      run += 1;
      x += 1;
    }
    runs.push(run);
  }
  if (runs.length % 2 === 0) runs.pop();
  return runs.map((r) => r / moduleWidth);
}

/**
 * The colours a PDF paints with (three components: `rg`/`RG`, or `scn`/`SCN` in DeviceRGB), as #RRGGBB, read from its
 * content streams (inflated when compressed): what a viewer draws in colour.
 */
export function pdfColors(pdf: Buffer): Set<string> {
  const colors = new Set<string>();
  let at = 0;
  for (;;) {
    const start = pdf.indexOf('stream\n', at);
    if (start < 0) break;
    const end = pdf.indexOf('\nendstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start + 'stream\n'.length, end);
    at = end + '\nendstream'.length;
    let text: string;
    try {
      text = inflateSync(raw).toString('latin1');
    } catch {
      text = raw.toString('latin1');
    }
    for (const m of text.matchAll(/(?:^|\s)([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG|scn|SCN)\b/g)) {
      const hex = [m[1], m[2], m[3]].map((v) =>
        Math.round(Number(v) * 255)
          .toString(16)
          .padStart(2, '0'),
      );
      colors.add(`#${hex.join('').toUpperCase()}`);
    }
  }
  return colors;
}
