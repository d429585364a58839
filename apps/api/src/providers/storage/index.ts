import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Env } from '../../config/env.ts';
import type { MediaStorage } from './storage.provider.ts';

export type { MediaStorage, StoredMedia } from './storage.provider.ts';

/** The default: files under `dir` (MEDIA_DIR inside DATA_DIR). */
export function createLocalMediaStorage(dir: string): MediaStorage {
  const file = (key: string) => path.join(dir, ...key.split('/'));
  return {
    name: 'local',
    async put(key, body) {
      await mkdir(path.dirname(file(key)), { recursive: true });
      await writeFile(file(key), body);
    },
    async get(key) {
      const size = await stat(file(key)).then(
        (s) => (s.isFile() ? s.size : null),
        () => null,
      );
      return size === null ? null : { body: createReadStream(file(key)), size };
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => rm(file(key), { force: true })));
    },
    async *list() {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        yield path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      }
    },
  };
}

export interface S3MediaOptions {
  bucket: string;
  /** Omitted for AWS itself; the server's address for MinIO, Cloudflare R2, Backblaze B2 and the like. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  timeoutMs: number;
}

/**
 * A bucket of any S3-compatible service, through the official AWS SDK. Path-style addresses
 * (`<endpoint>/<bucket>/<key>`) work on every such service, where bucket subdomains often do not; the
 * SDK's default CRC checksums are sent only when an operation requires them, since several compatible
 * services refuse the newer checksum headers.
 */
export function createS3MediaStorage(options: S3MediaOptions): MediaStorage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { requestTimeout: options.timeoutMs, connectionTimeout: options.timeoutMs },
  });
  const Bucket = options.bucket;
  return {
    name: 's3',
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) return null;
        return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (err) {
        if (err instanceof NoSuchKey) return null;
        if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
        throw err;
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => client.send(new DeleteObjectCommand({ Bucket, Key: key }))));
    },
    async *list() {
      for await (const page of paginateListObjectsV2({ client }, { Bucket })) {
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      }
    },
  };
}

export function createMediaStorage(env: Env): MediaStorage {
  if (env.MEDIA_STORAGE === 's3' && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) {
    return createS3MediaStorage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      timeoutMs: env.S3_TIMEOUT_MS,
    });
  }
  return createLocalMediaStorage(env.mediaDir);
}
