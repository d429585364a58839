import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { type AppJobCatalog, jobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { HttpError } from '../../plugins/errors.ts';
import type { MediaStorage } from '../../providers/storage/storage.provider.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import * as repo from './photos.repository.ts';
import {
  allPhotoKeys,
  makePhotoFiles,
  newPhotoName,
  originalKey,
  type PhotoFolder,
  photoOfUrl,
  photoUrl,
  readPhotoHeader,
  storageDown,
} from './photos.ts';

export type { PhotoRow, PhotoStatus } from './photos.repository.ts';

const RETRY_LIMIT = jobCatalog['photos.process'].retryLimit ?? 0;

export interface PhotoServiceDeps {
  db: Db;
  storage: MediaStorage;
  jobs: Jobs<AppJobCatalog>;
  catalog: CatalogService;
  log: FastifyBaseLogger;
  /** PHOTO_MAX_PIXELS. */
  maxPixels: number;
  /** A race's photo ready or failed: the results module's own row follows (decision 0064, later). */
  resultPhotoDone: (tx: Tx, url: string, status: 'pronta' | 'falhou') => Promise<void>;
}

/**
 * Uploaded photos (docs/decisions/0027): the request checks the header and stores the original; the
 * queue's `photos.process` job, one at a time per process, makes the resized files and marks the photo
 * `pronta`. Whatever is refused or fails leaves no file behind.
 */
export function createPhotoService(deps: PhotoServiceDeps) {
  const { db, storage, log } = deps;

  const forget = (keys: string[], why: string) =>
    storage.delete(keys).catch((err: unknown) => log.warn({ err, keys }, why));

  /**
   * Refuses what is not a photo, or too large, from its header alone; then stores the original and, in
   * one transaction, records the photo, runs `record` (the product's image row, the audit entry) and
   * enqueues its processing. If any of that fails the original is removed: nothing is left.
   */
  async function accept<T>(
    folder: PhotoFolder,
    buffer: Buffer,
    record: (tx: Tx, url: string) => Promise<T>,
  ): Promise<{ photo: repo.PhotoRow; url: string; recorded: T }> {
    await readPhotoHeader(buffer, deps.maxPixels);
    const name = newPhotoName();
    const key = originalKey(folder, name);
    try {
      await storage.put(key, buffer, 'application/octet-stream');
    } catch (err) {
      log.error({ err }, 'media storage write failed');
      // A write cut short on disk may have left part of the file.
      await forget([key], 'refused photo original was not deleted');
      throw storageDown();
    }
    try {
      return await db.transaction(async (tx) => {
        const photo = await repo.insertPhoto(tx, folder, name);
        const url = photoUrl(folder, name);
        const recorded = await record(tx, url);
        await deps.jobs.send('photos.process', { photoId: photo.id }, { tx });
        return { photo, url, recorded };
      });
    } catch (err) {
      await forget([key], 'refused photo original was not deleted');
      throw err;
    }
  }

  /** Ends the processing in one transaction: the photo and, for a product photo, its image row. */
  async function finish(photo: repo.PhotoRow, status: 'pronta' | 'falhou'): Promise<boolean> {
    return db.transaction(async (tx) => {
      const row = await repo.finishPhoto(tx, photo.id, status);
      if (!row) return false;
      if (photo.folder === 'produtos') {
        await deps.catalog.admin.setImageStatus(tx, photoUrl(photo.folder, photo.name), status);
      }
      if (photo.folder === 'resultados')
        await deps.resultPhotoDone(tx, photoUrl(photo.folder, photo.name), status);
      return true;
    });
  }

  /** The `photos.process` job: idempotent, so a retry after a crash redoes the same files. */
  async function process(photoId: number, attempt: number): Promise<void> {
    const photo = await repo.findPhoto(db, photoId);
    if (photo?.status !== 'processando') return;
    try {
      await makePhotoFiles(storage, photo.folder, photo.name, deps.maxPixels);
    } catch (err) {
      const lasting = err instanceof HttpError && err.statusCode < 500;
      if (!lasting && attempt <= RETRY_LIMIT) throw err;
      await forget(allPhotoKeys(photo.folder, photo.name), 'failed photo files were not deleted');
      await finish(photo, 'falhou');
      log.warn(
        { photoId, code: err instanceof HttpError ? err.code : 'erro_interno' },
        'Foto não processada; marcada como falhou',
      );
      return;
    }
    const ready = await finish(photo, 'pronta');
    // Removed while it was processed: the files just made belong to nothing.
    await forget(
      ready ? [originalKey(photo.folder, photo.name)] : allPhotoKeys(photo.folder, photo.name),
      'photo files were not deleted',
    );
  }

  /** A photo's state for the back office to poll; null for an unknown id. */
  async function status(id: number) {
    const photo = await repo.findPhoto(db, id);
    if (!photo) return null;
    return { id: photo.id, url: photoUrl(photo.folder, photo.name), status: photo.status };
  }

  /** Forgets the photo behind `url` inside the caller's transaction (its image row is being removed). */
  async function forgetInTx(tx: Tx, url: string): Promise<void> {
    const photo = photoOfUrl(url);
    if (photo) await repo.deletePhotoByName(tx, photo.name);
  }

  return { accept, process, status, forget: forgetInTx };
}

export type PhotoService = ReturnType<typeof createPhotoService>;
