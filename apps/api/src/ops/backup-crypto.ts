import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE_MODE } from './private-files.ts';

/**
 * An encrypted backup (docs/decisions/0058): a 36-byte header, then the `.tar.gz` archive encrypted with
 * AES-256-GCM under BACKUP_ENCRYPTION_KEY.
 *
 * | bytes | what |
 * |---|---|
 * | 0–6 | magic `PASSADA` (ASCII) |
 * | 7 | format version, 1 |
 * | 8–19 | IV: 12 random bytes, new for every backup |
 * | 20–35 | GCM authentication tag (16 bytes) |
 * | 36– | ciphertext |
 *
 * Bytes 0–19 (magic, version, IV) are the GCM's additional authenticated data, so a changed header is
 * refused like a changed ciphertext.
 */
const MAGIC = Buffer.from('PASSADA', 'ascii');
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const AAD_BYTES = MAGIC.length + 1 + IV_BYTES;
const HEADER_BYTES = AAD_BYTES + TAG_BYTES;

export class BackupKeyError extends Error {}

/** BACKUP_ENCRYPTION_KEY's 32 bytes (already checked by the environment's schema). */
export function backupKey(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

/** Whether `file` starts with the encrypted backup's magic (a plain backup starts with gzip's 1f 8b). */
export async function isEncryptedBackup(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, MAGIC.length, 0);
    return bytesRead === MAGIC.length && head.equals(MAGIC);
  } finally {
    await handle.close();
  }
}

/** Encrypts `source` into `target` (created 0600), streaming, so a large archive is never held in memory. */
export async function encryptBackupFile(source: string, target: string, key: Buffer): Promise<void> {
  const iv = randomBytes(IV_BYTES);
  const aad = Buffer.concat([MAGIC, Buffer.from([VERSION]), iv]);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  // The ciphertext after room for the header; the header (with the tag, known only at the end) last.
  await pipeline(
    createReadStream(source),
    cipher,
    createWriteStream(target, { mode: PRIVATE_FILE_MODE, start: HEADER_BYTES }),
  );
  const handle = await open(target, 'r+');
  try {
    await handle.write(Buffer.concat([aad, cipher.getAuthTag()]), 0, HEADER_BYTES, 0);
    await handle.chmod(PRIVATE_FILE_MODE);
  } finally {
    await handle.close();
  }
}

/**
 * Decrypts `source` into `target`. Throws BackupKeyError when the key is not the one that encrypted it
 * or any byte was changed (GCM cannot tell the two apart); `target` is then incomplete and must be
 * thrown away, which the caller's temporary folder does.
 */
export async function decryptBackupFile(source: string, target: string, key: Buffer): Promise<void> {
  const handle = await open(source, 'r');
  const header = Buffer.alloc(HEADER_BYTES);
  try {
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    if (bytesRead < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new BackupKeyError('Este arquivo não é um backup cifrado da loja (cabeçalho incompleto).');
    }
  } finally {
    await handle.close();
  }
  const version = header[MAGIC.length];
  if (version !== VERSION) {
    throw new BackupKeyError(
      `Backup cifrado na versão ${version} do formato, que esta versão da loja não lê.`,
    );
  }
  const iv = header.subarray(MAGIC.length + 1, AAD_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(header.subarray(0, AAD_BYTES));
  decipher.setAuthTag(header.subarray(AAD_BYTES, HEADER_BYTES));
  try {
    await pipeline(
      createReadStream(source, { start: HEADER_BYTES }),
      decipher,
      createWriteStream(target, { mode: PRIVATE_FILE_MODE }),
    );
  } catch {
    throw new BackupKeyError(
      'Backup recusado: não foi possível decifrá-lo com a BACKUP_ENCRYPTION_KEY informada (não é a chave usada no backup, ou o arquivo foi alterado). Nada foi restaurado.',
    );
  }
}
