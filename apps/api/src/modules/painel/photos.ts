import { randomBytes } from 'node:crypto';
import { buffer as readStream } from 'node:stream/consumers';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import { PainelPhotoSchema } from '@passada/core/contracts/painel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import decodeHeic from 'heic-decode';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import type { PainelRouteConfig } from '../staff/index.ts';

/** Widths every uploaded photo is resized to; the shop's `<img>` uses the middle one. */
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
const MAIN_WIDTH = 800;
const LARGEST_WIDTH = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
export const PHOTO_FOLDERS = ['produtos', 'eventos', 'banners'] as const;
export type PhotoFolder = (typeof PHOTO_FOLDERS)[number];
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;

const URL_PREFIX = '/api/media/uploads';
const FILE_RE = /^([a-z0-9]{20})-(400|800|1200)\.(webp|avif)$/;
const MAIN_URL_RE = new RegExp(`^${URL_PREFIX}/([a-z]+)/([a-z0-9]{20})-${MAIN_WIDTH}\\.webp$`);

/**
 * libvips keeps recent decoded images and operations in a cache of up to 50 MB by default, which after
 * a burst of large photos is memory the process holds for nothing: every photo is read once. One
 * libvips thread per image is already sharp's default on glibc; it is set here so a processing photo
 * never takes both cores of a small server from the shop (docs/decisions/0027).
 */
export function tuneSharp(): void {
  sharp.cache(false);
  sharp.concurrency(1);
}

const unsupported = () =>
  new HttpError(415, 'Envie uma foto JPEG, PNG, WebP ou HEIC.', 'formato_nao_suportado');

const tooManyPixels = (width: number, height: number, maxPixels: number) =>
  new HttpError(
    422,
    `A foto tem ${width} × ${height} pixels; o limite é de ${Math.floor(maxPixels / 1_000_000)} megapixels. ` +
      'Reduza a foto e envie de novo.',
    'foto_grande_demais',
  );

export const storageDown = () =>
  new HttpError(
    502,
    'Não foi possível guardar a foto agora. Tente de novo em instantes.',
    'armazenamento_indisponivel',
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
  if (!req.isMultipart()) throw badRequest('Envie a foto como multipart/form-data.', 'foto_ausente');
  try {
    const file = await req.file();
    if (!file) throw badRequest(missing, 'foto_ausente');
    return await file.toBuffer();
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
 * One image upload route for an image that belongs to no product (a banner, an event's picture): reads
 * the multipart file (`readUploadedPhoto`), hands it to `app.photos` in `folder` and answers 202 with
 * the photo `processando`; the page polls `GET /photos/:id/` and saves the URL with its own form.
 */
export function photoUploadRoute(
  app: Parameters<FastifyPluginAsyncZod>[0],
  url: string,
  folder: PhotoFolder,
  route: { config: { painel: PainelRouteConfig }; tags: string[]; summary: string },
): void {
  const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
  app.post(
    url,
    {
      config: route.config,
      schema: {
        tags: route.tags,
        summary: route.summary,
        consumes: ['multipart/form-data'],
        response: {
          202: PainelPhotoSchema,
          ...errors,
          413: ApiErrorSchema,
          415: ApiErrorSchema,
          422: ApiErrorSchema,
          502: ApiErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const buffer = await readUploadedPhoto(req, 'Escolha uma imagem.');
      const { photo, url: photoUrl } = await app.photos.accept(folder, buffer, async () => undefined);
      return reply.status(202).send({ id: photo.id, url: photoUrl, status: photo.status });
    },
  );
}

/** A new photo's random name: the same name always means the same bytes. */
export const newPhotoName = () => randomBytes(10).toString('hex');

/** The key of the original as uploaded, kept only until its resized copies exist. */
export const originalKey = (folder: string, name: string) => `${folder}/${name}.original`;

/** The URL the shop shows a photo at (its 800 px WebP). */
export const photoUrl = (folder: string, name: string) =>
  `${URL_PREFIX}/${folder}/${name}-${MAIN_WIDTH}.webp`;

/** Keys of the six resized files of a photo. */
const variantKeys = (folder: string, name: string) =>
  PHOTO_WIDTHS.flatMap((w) => [`${folder}/${name}-${w}.webp`, `${folder}/${name}-${w}.avif`]);

/** Every key a photo may have in the storage: the resized files and, while it is processed, the original. */
export const allPhotoKeys = (folder: string, name: string) => [
  ...variantKeys(folder, name),
  originalKey(folder, name),
];

const typeOf = (format: string) => (format === 'avif' ? 'image/avif' : 'image/webp');

/**
 * Decodes the original once, at most LARGEST_WIDTH wide, into raw pixels. sharp refuses anything over
 * `maxPixels` again here (`limitInputPixels`), in case an original reached the queue some other way.
 * HEIC goes through libheif compiled to JavaScript (sharp's prebuilt libvips reads AVIF but not
 * HEVC-coded HEIC), after its dimensions were checked on the handle, before `decode()`.
 */
async function decodeOriginal(buffer: Buffer, maxPixels: number) {
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
 * Makes the six files of a stored original (WebP and AVIF at each width, never enlarging), one after
 * the other so a photo holds one decoded copy at a time, and puts them in the storage. When the
 * storage fails, the files already put are removed and a 502 HttpError is thrown; a file that cannot
 * be decoded throws a 4xx HttpError. Either way nothing of the resized files is left.
 */
export async function makePhotoFiles(
  storage: MediaStorage,
  folder: string,
  name: string,
  maxPixels: number,
): Promise<void> {
  const stored = await storage.get(originalKey(folder, name)).catch(() => {
    throw storageDown();
  });
  // Gone: the photo was removed, or a run before this one already finished it.
  if (!stored) throw new HttpError(410, 'O original da foto não existe mais.', 'original_ausente');
  const original = await readStream(stored.body);
  const { data, info } = await decodeOriginal(original, maxPixels);
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const put: string[] = [];
  try {
    for (const width of PHOTO_WIDTHS) {
      for (const format of ['webp', 'avif'] as const) {
        const resized = sharp(data, { raw }).resize({ width, withoutEnlargement: true });
        const body = await (format === 'webp'
          ? resized.webp({ quality: 80 })
          : resized.avif({ quality: 50, effort: 2 })
        ).toBuffer();
        const key = `${folder}/${name}-${width}.${format}`;
        put.push(key);
        await storage.put(key, body, typeOf(format)).catch(() => {
          throw storageDown();
        });
      }
    }
  } catch (err) {
    await storage.delete(put).catch(() => undefined);
    throw err;
  }
}

/** The storage keys of every file of an uploaded photo, from its URL; empty for other images. */
export function photoKeys(url: string): string[] {
  const m = MAIN_URL_RE.exec(url);
  if (!m?.[1] || !m[2]) return [];
  return allPhotoKeys(m[1], m[2]);
}

/** The folder and name of an uploaded photo's URL, or null for other images. */
export function photoOfUrl(url: string): { folder: string; name: string } | null {
  const m = MAIN_URL_RE.exec(url);
  return m?.[1] && m[2] ? { folder: m[1], name: m[2] } : null;
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
