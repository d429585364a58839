import type { FastifyRequest } from 'fastify';
import decodeHeic from 'heic-decode';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { badRequest, HttpError } from './errors.ts';

/**
 * Reading an uploaded image safely (docs/decisions/0027): the header checked before any pixel is
 * decoded (a decompression bomb is refused), HEIC through libheif, one decode at most 1200 wide. The
 * back office's photos and the runners' proofs of special prices (docs/decisions/0068) both use it.
 */

/** The largest upload a multipart route takes. */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/** The widest an uploaded image is ever decoded. */
const LARGEST_WIDTH = 1200;

export const unsupported = () =>
  new HttpError(415, 'Envie uma foto JPEG, PNG, WebP ou HEIC.', 'formato_nao_suportado');

const tooManyPixels = (width: number, height: number, maxPixels: number) =>
  new HttpError(
    422,
    `A foto tem ${width} × ${height} pixels; o limite é de ${Math.floor(maxPixels / 1_000_000)} megapixels. ` +
      'Reduza a foto e envie de novo.',
    'foto_grande_demais',
  );

/** ISO-BMFF brands of HEIC/HEIF files, the format iPhones save photos in. */
function isHeic(buffer: Buffer): boolean {
  if (buffer.length < 12 || buffer.toString('latin1', 4, 8) !== 'ftyp') return false;
  return ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(
    buffer.toString('latin1', 8, 12),
  );
}

/** What the header of an upload says, read without decoding a single pixel. */
export interface PhotoHeader {
  format: 'heic' | 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
}

/**
 * Reads the format and the dimensions from the file's header and refuses what the shop cannot take:
 * another format (415) or more than `maxPixels` pixels (422). A PNG of a few hundred kilobytes can
 * declare 16000 × 16000 pixels, a gigabyte once decoded, so this runs before anything decodes it:
 * sharp's `metadata()` and libheif's image handles both stop at the header.
 */
export async function readPhotoHeader(buffer: Buffer, maxPixels: number): Promise<PhotoHeader> {
  let header: PhotoHeader;
  if (isHeic(buffer)) {
    let images: Awaited<ReturnType<typeof decodeHeic.all>>;
    try {
      images = await decodeHeic.all({ buffer });
    } catch {
      throw unsupported();
    }
    const [first] = images;
    images.dispose();
    if (!first) throw unsupported();
    header = { format: 'heic', width: first.width, height: first.height };
  } else {
    let meta: Metadata;
    try {
      meta = await sharp(buffer).metadata();
    } catch {
      throw unsupported();
    }
    if (meta.format !== 'jpeg' && meta.format !== 'png' && meta.format !== 'webp') throw unsupported();
    if (!meta.width || !meta.height) throw unsupported();
    // Animated WebP: sharp reads the first frame only, so the frame's size is what counts.
    header = { format: meta.format, width: meta.width, height: meta.pageHeight ?? meta.height };
  }
  if (header.width * header.height > maxPixels) throw tooManyPixels(header.width, header.height, maxPixels);
  return header;
}

/**
 * The file of a multipart upload (field "foto"), read into memory (at most MAX_PHOTO_BYTES, the
 * multipart limit). A body cut short (the connection dropped, a proxy gave up) is a 400 in Portuguese,
 * not a server error; nothing has been written at that point.
 */
export async function readUploadedPhoto(req: FastifyRequest, missing: string): Promise<Buffer> {
  return (await readUploadedPhotoFile(req, missing)).buffer;
}

/** `readUploadedPhoto` with the file's name as the browser sent it (a race's photos are named by it). */
export async function readUploadedPhotoFile(
  req: FastifyRequest,
  missing: string,
): Promise<{ buffer: Buffer; fileName: string }> {
  if (!req.isMultipart()) throw badRequest('Envie a foto como multipart/form-data.', 'foto_ausente');
  try {
    const file = await req.file();
    if (!file) throw badRequest(missing, 'foto_ausente');
    return { buffer: await file.toBuffer(), fileName: file.filename };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // @fastify/multipart's own refusals (file too large: 413, too many files or fields: 413) keep
    // their status; busboy's "Unexpected end of form" and the like carry none.
    const status = (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      if (status === 413) {
        throw new HttpError(
          413,
          `A foto passa de ${MAX_PHOTO_BYTES / 1024 / 1024} MB. Envie uma foto menor.`,
          'foto_pesada_demais',
        );
      }
      throw badRequest('Envie uma foto por vez, no campo "foto".', 'envio_invalido');
    }
    throw badRequest('O envio da foto foi interrompido antes do fim. Envie de novo.', 'envio_incompleto');
  }
}

/**
 * Decodes the original once, at most LARGEST_WIDTH wide, into raw pixels. sharp refuses anything over
 * `maxPixels` again here (`limitInputPixels`), in case an original reached the queue some other way.
 * HEIC goes through libheif compiled to JavaScript (sharp's prebuilt libvips reads AVIF but not
 * HEVC-coded HEIC), after its dimensions were checked on the handle, before `decode()`.
 */
export async function decodeOriginal(buffer: Buffer, maxPixels: number) {
  let image: Sharp;
  if (isHeic(buffer)) {
    const images = await decodeHeic.all({ buffer }).catch(() => {
      throw unsupported();
    });
    try {
      const first = images[0];
      if (!first) throw unsupported();
      if (first.width * first.height > maxPixels) throw tooManyPixels(first.width, first.height, maxPixels);
      const { width, height, data } = await first.decode().catch(() => {
        throw unsupported();
      });
      image = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
        raw: { width, height, channels: 4 },
        limitInputPixels: maxPixels,
      });
    } finally {
      images.dispose();
    }
  } else {
    // Phones store the camera's orientation in EXIF; apply it, since the outputs carry no EXIF.
    image = sharp(buffer, { limitInputPixels: maxPixels }).rotate();
  }
  try {
    return await image
      .resize({ width: LARGEST_WIDTH, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(415, 'Não foi possível ler esta foto. Envie outra.', 'foto_ilegivel');
  }
}

/**
 * A photo of a document (a student ID, a teacher's or a PCD proof, docs/decisions/0068) or a buyer's
 * review photo made safe to keep: the header checked before any decoding (format, `maxPixels`), decoded
 * once at most `width` (1200) wide with the camera's orientation applied, and re-encoded as WebP with
 * no metadata (no EXIF location).
 */
export async function documentImage(
  buffer: Buffer,
  maxPixels: number,
  width = LARGEST_WIDTH,
): Promise<Buffer> {
  await readPhotoHeader(buffer, maxPixels);
  const { data, info } = await decodeOriginal(buffer, maxPixels);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 85 })
    .toBuffer();
}

/** The side of the e-mails' logo, in pixels: drawn at 32, sharp on a phone's 3× and 4× screens. */
export const MARK_SIZE = 128;

/**
 * The shop's mark for the e-mails' header (docs/decisions/0045, later) from any photo staff send: the
 * header checked before any decoding, decoded once, fitted into a 128 px square on a transparent
 * background and written as PNG (mail programs draw neither SVG nor WebP everywhere), with no metadata.
 */
export async function markImage(buffer: Buffer, maxPixels: number): Promise<Buffer> {
  await readPhotoHeader(buffer, maxPixels);
  const { data, info } = await decodeOriginal(buffer, maxPixels);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .resize(MARK_SIZE, MARK_SIZE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}
