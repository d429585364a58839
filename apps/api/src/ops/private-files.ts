import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Folders the shop keeps under DATA_DIR: only the shop's own user may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files the shop keeps under DATA_DIR: only the shop's own user may read or write them. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Where the documents of special prices are kept (docs/decisions/0068): under DATA_DIR, never in the
 * public media; the backup carries them beside the database.
 */
export const proofsDir = (dataDir: string): string => path.join(dataDir, 'comprovantes');

/**
 * Creates `dir` (and any missing parent) as 0700 and tightens it when it already exists: `mkdir`'s mode
 * is filtered by the machine's umask and ignored for a folder already there, so the mode is set again.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Writes a file as 0600 (set again after the write, whatever the umask or an older file's mode), whole
 * or not at all: the bytes go to a temporary name in the same folder, renamed over `file` once written,
 * so whoever lists the folder (the outboxes' readers, a backup) never reads half a file.
 */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  const partial = `${file}.${randomBytes(6).toString('hex')}.parcial`;
  try {
    await writeFile(partial, data, { mode: PRIVATE_FILE_MODE });
    await chmod(partial, PRIVATE_FILE_MODE);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Tightens a whole tree (the PGlite data folder, whose files its WebAssembly file system creates as
 * 0666/0777): every folder 0700, every file 0600. Run when the shop opens the folder, so a folder
 * created by an older version is tightened too.
 */
export function tightenTreeSync(dir: string): void {
  chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(file, PRIVATE_DIR_MODE);
    else if (entry.isFile()) chmodSync(file, PRIVATE_FILE_MODE);
  }
}
