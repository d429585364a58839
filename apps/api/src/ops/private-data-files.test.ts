import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { createOutboxMailer } from '../providers/mail/index.ts';
import { createOutboxWhatsApp } from '../providers/whatsapp/outbox.provider.ts';
import { createBackup, RestoreRefused, restoreBackup } from './backup.ts';

const mode = (file: string) => statSync(file).mode & 0o777;

/** Every folder and file under `dir` whose mode is not 0700 (folders) or 0600 (files). */
function looseIn(dir: string): string[] {
  const loose = mode(dir) === 0o700 ? [] : [`${dir} ${mode(dir).toString(8)}`];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const want = entry.isDirectory() ? 0o700 : 0o600;
    if ((entry.isDirectory() || entry.isFile()) && mode(file) !== want) {
      loose.push(`${file} ${mode(file).toString(8)}`);
    }
  }
  return loose;
}

const API_ROOT = path.resolve(import.meta.dirname, '../..');
const EMAIL = 'cliente.sigilosa@example.com';
const KEY = randomBytes(32).toString('base64');

describe('the files the shop keeps under DATA_DIR', () => {
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'passada-private-'));
    folders.push(dir);
    return dir;
  };
  let dataDir: string;
  let previousUmask: number;

  beforeAll(async () => {
    // A machine whose umask would leave every new file open to everyone: modes must not rely on it.
    previousUmask = process.umask(0);
    dataDir = folder();
    const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      await database.migrate();
      await database.db
        .insert(users)
        .values({ username: 'sigilosa', email: EMAIL, fullName: 'Cliente Sigilosa', passwordHash: 'x' });
    } finally {
      await database.close();
    }
  });
  afterAll(() => {
    process.umask(previousUmask);
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the embedded database folder 0700 with its files 0600, and tightens an older open folder', async () => {
    const pglite = path.join(dataDir, 'pglite');
    expect(looseIn(pglite)).toEqual([]);
    chmodSync(pglite, 0o777);
    chmodSync(path.join(pglite, 'PG_VERSION'), 0o666);
    const database = await openDatabase({ dataDir: pglite });
    await database.close();
    expect(looseIn(pglite)).toEqual([]);
  });

  it('writes the e-mail and WhatsApp outboxes 0700/0600', async () => {
    const outbox = path.join(folder(), 'outbox');
    await createOutboxMailer(outbox, 'loja@example.com').send({ to: EMAIL, subject: 'Pedido', text: 'Olá' });
    await createOutboxWhatsApp(path.join(outbox, 'whatsapp')).send({
      to: '5585999990000',
      template: 'inscricao_confirmada',
      parameters: ['Ana', '12', 'Corrida do Sol', '10/05', 'https://loja.example.com/inscricao'],
    });
    expect(looseIn(outbox)).toEqual([]);
  });

  const envFor = (dir: string, key?: string) =>
    loadEnv({ DATA_DIR: dir, NODE_ENV: 'test', ...(key ? { BACKUP_ENCRYPTION_KEY: key } : {}) });
  const contains = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text));
  /** The embedded database's copy inside a plain backup, unpacked to raw bytes. */
  function databaseBytes(archive: string): Buffer {
    const out = folder();
    execFileSync('tar', ['-xzf', archive, '-C', out]);
    return gunzipSync(readFileSync(path.join(out, 'database.pglite.tar.gz')));
  }

  it('writes a plain backup 0600 in a 0700 folder', async () => {
    const { file } = await createBackup(envFor(dataDir), path.join(dataDir, 'backups'));
    expect(mode(path.join(dataDir, 'backups'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    // The control for the next test: a plain backup does hold the customer's e-mail.
    expect(contains(databaseBytes(file), EMAIL)).toBe(true);
  });

  describe('with BACKUP_ENCRYPTION_KEY', () => {
    let encrypted: string;
    beforeAll(async () => {
      ({ file: encrypted } = await createBackup(envFor(dataDir, KEY), path.join(folder(), 'fora')));
    });

    it('writes an encrypted backup, 0600, that holds no plaintext of a customer nor a readable archive', () => {
      expect(encrypted).toMatch(/\.tar\.gz\.enc$/);
      expect(mode(encrypted)).toBe(0o600);
      const bytes = readFileSync(encrypted);
      expect(bytes.subarray(0, 8).toString('latin1')).toBe('PASSADA\x01');
      expect(contains(bytes, EMAIL)).toBe(false);
      expect(contains(bytes, 'manifest.json')).toBe(false);
      expect(() => gunzipSync(bytes)).toThrow();
    });

    it('restores to the same data with the same key, the restored folder 0700/0600, and a plain backup too', async () => {
      const target = folder();
      const { counts } = await restoreBackup(envFor(target, KEY), encrypted);
      expect(counts).toEqual({ orders: 0, registrations: 0, photos: 0, media_files: 0, proof_files: 0 });
      expect(looseIn(path.join(target, 'pglite'))).toEqual([]);
      const database = await openDatabase({ dataDir: path.join(target, 'pglite') });
      try {
        const rows = await database.db.select().from(users).where(eq(users.email, EMAIL));
        expect(rows.map((u) => u.fullName)).toEqual(['Cliente Sigilosa']);
      } finally {
        await database.close();
      }
      // An older, plain backup is still read with the key set.
      const { file: plain } = await createBackup(envFor(dataDir), path.join(folder(), 'simples'));
      expect((await restoreBackup(envFor(folder(), KEY), plain)).counts.orders).toBe(0);
    });

    it('refuses a backup with one flipped byte in its header, tag or contents, restoring nothing', async () => {
      const original = readFileSync(encrypted);
      // The IV, the tag, and a byte of the encrypted archive.
      for (const at of [10, 25, Math.floor(original.length / 2)]) {
        const tampered = path.join(folder(), 'alterado.tar.gz.enc');
        const bytes = Buffer.from(original);
        bytes[at]! ^= 0x01;
        writeFileSync(tampered, bytes);
        const target = folder();
        const refusal = await restoreBackup(envFor(target, KEY), tampered).catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(RestoreRefused);
        expect((refusal as Error).message).toMatch(/o arquivo foi alterado.*Nada foi restaurado/);
        expect(readdirSync(target)).toEqual([]);
      }
    });

    it('npm run restore stops on a wrong or malformed key, naming the setting, and restores nothing', () => {
      const target = folder();
      const restore = (key: string) =>
        spawnSync(
          process.execPath,
          ['--import', 'tsx', path.join(API_ROOT, 'scripts/restore.ts'), encrypted],
          {
            cwd: API_ROOT,
            encoding: 'utf8',
            env: { ...process.env, DATA_DIR: target, NODE_ENV: 'test', BACKUP_ENCRYPTION_KEY: key },
          },
        );
      const wrong = restore(randomBytes(32).toString('base64'));
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain('com a BACKUP_ENCRYPTION_KEY informada');
      const malformed = restore('curta');
      expect(malformed.status).toBe(1);
      expect(malformed.stderr).toContain('BACKUP_ENCRYPTION_KEY: deve ter 32 bytes em base64');
      expect(readdirSync(target)).toEqual([]);
    });

    it('refuses a wrong key and a missing key with a message naming the setting, restoring nothing', async () => {
      const target = folder();
      const wrong = await restoreBackup(envFor(target, randomBytes(32).toString('base64')), encrypted).catch(
        (error: unknown) => error,
      );
      expect(wrong).toBeInstanceOf(RestoreRefused);
      expect((wrong as Error).message).toContain('BACKUP_ENCRYPTION_KEY');
      const missing = await restoreBackup(envFor(target), encrypted).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(RestoreRefused);
      expect((missing as Error).message).toContain('defina BACKUP_ENCRYPTION_KEY');
      expect(existsSync(path.join(target, 'pglite'))).toBe(false);
    });
  });

  it('refuses a key that is not 32 bytes in base64, naming the setting', () => {
    for (const bad of [randomBytes(16).toString('base64'), 'não é base64 nenhum']) {
      expect(() => envFor(folder(), bad)).toThrow(EnvError);
      expect(() => envFor(folder(), bad)).toThrow(/BACKUP_ENCRYPTION_KEY: deve ter 32 bytes em base64/);
    }
  });
});
