import { randomBytes } from 'node:crypto';
import { buffer as readStream } from 'node:stream/consumers';
import { ApiErrorSchema } from '@passada/core/contracts/common';
import { PainelPhotoSchema } from '@passada/core/contracts/painel';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { HttpError } from '../../plugins/errors.ts';
import { decodeOriginal, readUploadedPhoto } from '../../plugins/uploaded-images.ts';

export {
  MAX_PHOTO_BYTES,
  type PhotoHeader,
  readPhotoHeader,
  readUploadedPhoto,
  readUploadedPhotoFile,
} from '../../plugins/uploaded-images.ts';

import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import type { PainelRouteConfig } from '../staff/index.ts';

/** Widths every uploaded photo is resized to; the shop's `<img>` uses the middle one. */
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
const MAIN_WIDTH = 800;
export const PHOTO_FOLDERS = ['produtos', 'eventos', 'banners', 'resultados'] as const;
export type PhotoFolder = (typeof PHOTO_FOLDERS)[number];

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

export const storageDown = () =>
  new HttpError(
    502,
    'Não foi possível guardar a foto agora. Tente de novo em instantes.',
    'armazenamento_indisponivel',
  );

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

/** The folders whose photos carry the brand's mark (a race's photos, given free: decision 0064, later). */
const MARKED: readonly string[] = ['resultados'];

/**
 * The brand's mark, drawn as paths (no font needed on the server): the favicon's bolt on its orange
 * square, a fifth of the photo's width, in the lower right corner, a little transparent.
 */
async function withBrandMark(data: Buffer, raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 }) {
  const size = Math.max(48, Math.round(Math.min(raw.width, raw.height) / 5));
  const margin = Math.round(size / 6);
  const mark = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32" opacity="0.8"><rect width="32" height="32" rx="7" fill="#ea580c"/><path d="M9 23l6-14h4l-2 5h5l-9 11 2-6z" fill="#fff"/></svg>`,
  );
  const out = await sharp(data, { raw })
    .composite([{ input: mark, left: raw.width - size - margin, top: raw.height - size - margin }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: out.data,
    raw: { width: out.info.width, height: out.info.height, channels: out.info.channels },
  };
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
  const decoded = await decodeOriginal(original, maxPixels);
  const plain = {
    data: decoded.data,
    raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels },
  };
  const { data, raw } = MARKED.includes(folder) ? await withBrandMark(plain.data, plain.raw) : plain;
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
