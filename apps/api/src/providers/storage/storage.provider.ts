import type { Readable } from 'node:stream';

/** One stored file, ready to stream to the browser. */
export interface StoredMedia {
  body: Readable;
  /** Bytes, for `content-length`. */
  size: number;
}

/**
 * Where uploaded photos live (docs/decisions/0018). Keys are `<folder>/<name>`, e.g.
 * `produtos/0a1b…-800.webp`; a key is written once and its bytes never change.
 */
export interface MediaStorage {
  readonly name: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when no file has that key. */
  get(key: string): Promise<StoredMedia | null>;
  /** Removes the files; keys that do not exist are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  /** Every stored key, in no particular order (backups: docs/operations.md). */
  list(): AsyncIterable<string>;
}
