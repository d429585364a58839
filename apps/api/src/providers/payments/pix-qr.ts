import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/**
 * The simulated bank draws every code with one mask (ISO/IEC 18004 lets an encoder choose any of the
 * eight; a reader learns it from the code's format bits). Scoring all eight to pick the one with the
 * fewest confusing patterns was half of this function's CPU on every Pix charge, for a code no real
 * bank ever pays (the simulator's location is not a PSP's); Efí's codes come drawn by Efí.
 */
const SIMULATED_MASK = 0;

/**
 * A Pix QR code as a PNG data URI: the same pixels `QRCode.toDataURL(payload, { errorCorrectionLevel:
 * 'M', margin: 2, width: 320, maskPattern: 0 })` draws (the library picks the version), written by pngjs (the
 * library's own PNG encoder) as an 8-bit greyscale PNG with every row filtered against the row above.
 *
 * Why not the library's `toDataURL`: it writes 8-bit RGBA and tries every row filter, about 18 ms of
 * CPU per charge. libvips (sharp) as a two-colour palette cost about 6 ms, most of it the fixed cost of
 * a libvips pipeline and the palette quantiser, on its own threads. A QR image is rows repeated a whole
 * module high, so the "up" filter turns all but the first row of each module into zeros: about 1.5 ms
 * and 2 KB here, smaller than the library's file.
 */
export function pixQrDataUri(payload: string, width = 320, margin = 2): string {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M', maskPattern: SIMULATED_MASK });
  const { size, data } = modules;
  // As the library scales: a fractional number of pixels per module, so the image is exactly `width`.
  const scale = width / (size + margin * 2);
  const quiet = margin * scale;
  const moduleAt = (pixel: number) => {
    const m = Math.floor((pixel - quiet) / scale);
    return pixel < quiet || m >= size ? -1 : m;
  };
  const columns = Int16Array.from({ length: width }, (_, x) => moduleAt(x));
  // One byte per pixel, white (255) unless a dark module covers it.
  const grey = Buffer.alloc(width * width, 255);
  for (let y = 0; y < width; y++) {
    const row = moduleAt(y);
    if (row < 0) continue;
    for (let x = 0; x < width; x++) {
      const column = columns[x]!;
      if (column >= 0 && data[row * size + column]) grey[y * width + x] = 0;
    }
  }
  const image = new PNG({ width, height: width, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  image.data = grey;
  const png = PNG.sync.write(image, {
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    filterType: 2,
  });
  return `data:image/png;base64,${png.toString('base64')}`;
}
