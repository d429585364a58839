import { randomBytes } from 'node:crypto';
import decodeHeic from 'heic-decode';
import sharp, { type Sharp } from 'sharp';
import { HttpError } from '../../plugins/errors.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';

/** Widths every uploaded photo is resized to; the shop's `<img>` uses the middle one. */
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
const MAIN_WIDTH = 800;
export const PHOTO_FOLDERS = ['produtos', 'eventos'] as const;
export type PhotoFolder = (typeof PHOTO_FOLDERS)[number];
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;

const URL_PREFIX = '/api/media/uploads';
const FILE_RE = /^([a-z0-9]{20})-(400|800|1200)\.(webp|avif)$/;
const MAIN_URL_RE = new RegExp(`^${URL_PREFIX}/([a-z]+)/([a-z0-9]{20})-${MAIN_WIDTH}\\.webp$`);

const unsupported = () =>
  new HttpError(415, 'Envie uma foto JPEG, PNG, WebP ou HEIC.', 'formato_nao_suportado');

/** ISO-BMFF brands of HEIC/HEIF files, the format iPhones save photos in. */
function isHeic(buffer: Buffer): boolean {
  if (buffer.length < 12 || buffer.toString('latin1', 4, 8) !== 'ftyp') return false;
  return ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(
    buffer.toString('latin1', 8, 12),
  );
}

/**
 * sharp's prebuilt libvips reads AVIF but not HEVC-coded HEIC, so HEIC is decoded by libheif compiled
 * to JavaScript first; everything else goes straight to sharp.
 */
async function open(buffer: Buffer): Promise<Sharp> {
  if (isHeic(buffer)) {
    try {
      const { width, height, data } = await decodeHeic({ buffer });
      return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
        raw: { width, height, channels: 4 },
      });
    } catch {
      throw unsupported();
    }
  }
  let format: string | undefined;
  try {
    format = (await sharp(buffer).metadata()).format;
  } catch {
    throw unsupported();
  }
  if (!format || !['jpeg', 'png', 'webp'].includes(format)) throw unsupported();
  // Phones store the camera's orientation in EXIF; apply it, since the outputs carry no EXIF.
  return sharp(buffer).rotate();
}

const storageDown = () =>
  new HttpError(
    502,
    'Não foi possível guardar a foto agora. Tente de novo em instantes.',
    'armazenamento_indisponivel',
  );

const typeOf = (format: string) => (format === 'avif' ? 'image/avif' : 'image/webp');

/**
 * Resizes an upload into WebP and AVIF at each width (never enlarging), puts the six files in the media
 * storage under `<folder>/` and answers the main WebP's URL. Names are random, so a URL always means
 * the same bytes. When the storage fails, the files already put are removed and nothing is answered.
 */
export async function storePhoto(
  storage: MediaStorage,
  folder: PhotoFolder,
  buffer: Buffer,
): Promise<string> {
  const image = await open(buffer);
  const name = randomBytes(10).toString('hex');
  const files = await Promise.all(
    PHOTO_WIDTHS.map(async (width) => {
      const resized = image.clone().resize({ width, withoutEnlargement: true });
      const [webp, avif] = await Promise.all([
        resized.clone().webp({ quality: 80 }).toBuffer(),
        resized.clone().avif({ quality: 50, effort: 2 }).toBuffer(),
      ]);
      return [
        { key: `${folder}/${name}-${width}.webp`, body: webp, type: typeOf('webp') },
        { key: `${folder}/${name}-${width}.avif`, body: avif, type: typeOf('avif') },
      ];
    }),
  ).then((pairs) => pairs.flat());
  const puts = await Promise.allSettled(files.map((f) => storage.put(f.key, f.body, f.type)));
  if (puts.some((p) => p.status === 'rejected')) {
    await storage.delete(files.map((f) => f.key)).catch(() => undefined);
    throw storageDown();
  }
  return `${URL_PREFIX}/${folder}/${name}-${MAIN_WIDTH}.webp`;
}

/** The storage keys of every file of an uploaded photo, from its URL; empty for other images. */
export function photoKeys(url: string): string[] {
  const m = MAIN_URL_RE.exec(url);
  if (!m) return [];
  return PHOTO_WIDTHS.flatMap((w) => [`${m[1]}/${m[2]}-${w}.webp`, `${m[1]}/${m[2]}-${w}.avif`]);
}

/** The `srcset` of an uploaded photo in one format; empty for other images (the generated ones). */
export function photoSrcset(url: string, format: 'webp' | 'avif'): string {
  const m = MAIN_URL_RE.exec(url);
  if (!m) return '';
  return PHOTO_WIDTHS.map((w) => `${URL_PREFIX}/${m[1]}/${m[2]}-${w}.${format} ${w}w`).join(', ');
}

/** The storage key and type behind a media URL's last two parts, or null when they are not a stored photo's name. */
export function photoFile(folder: string, file: string) {
  const m = FILE_RE.exec(file);
  if (!m || !(PHOTO_FOLDERS as readonly string[]).includes(folder)) return null;
  return { key: `${folder}/${file}`, type: typeOf(m[3] ?? 'webp') };
}
