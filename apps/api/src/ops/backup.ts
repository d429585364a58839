import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import type { Env } from '../config/env.ts';
import { type Database, type Db, openDatabase } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { createMediaStorage, type MediaStorage } from '../providers/storage/index.ts';
import {
  BackupKeyError,
  backupKey,
  decryptBackupFile,
  encryptBackupFile,
  isEncryptedBackup,
} from './backup-crypto.ts';
import {
  ensurePrivateDir,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  proofsDir,
  tightenTreeSync,
} from './private-files.ts';

const run = promisify(execFile);

/** What a backup holds, written beside the data as `manifest.json` and checked again after a restore. */
export interface BackupManifest {
  /** When it was taken (UTC, ISO 8601). */
  created_at: string;
  database: 'pglite' | 'postgres';
  /** The newest migration in the database when it was taken (drizzle's `created_at`). */
  newest_migration: number;
  counts: BackupCounts;
}

export interface BackupCounts {
  orders: number;
  registrations: number;
  photos: number;
  media_files: number;
  /** The special prices' documents (DATA_DIR/comprovantes); absent from backups made before them. */
  proof_files?: number;
}

const DUMP_FILE = { postgres: 'database.pgdump', pglite: 'database.pglite.tar.gz' } as const;
const MEDIA = 'media';
const PROOFS = 'comprovantes';
const MANIFEST = 'manifest.json';

/**
 * `npm run backup`: the database and the uploaded photos in one dated `.tar.gz` under `outDir`
 * (docs/operations.md "A way back"). PostgreSQL is dumped by `pg_dump` in its custom format while the
 * shop runs (one consistent snapshot); the embedded PGlite database is copied by PGlite's own
 * `dumpDataDir`, which needs the shop stopped (one process owns that folder). Photos are read through
 * the configured storage (folder or bucket), so a bucket is backed up like a folder. The archive is
 * 0600 (its folder 0700 when the shop creates it); with BACKUP_ENCRYPTION_KEY it is encrypted with
 * AES-256-GCM (`.tar.gz.enc`, backup-crypto.ts).
 */
export async function createBackup(
  env: Env,
  outDir: string,
  now = new Date(),
): Promise<{ file: string; manifest: BackupManifest }> {
  // A private temporary folder (mkdtemp: 0700) holding the archive's contents and the plain archive.
  const work = await mkdtemp(path.join(tmpdir(), 'passada-backup-'));
  const staging = path.join(work, 'conteudo');
  try {
    await mkdir(staging, { mode: PRIVATE_DIR_MODE });
    const kind = env.DATABASE_URL ? 'postgres' : 'pglite';
    let counts: Omit<BackupCounts, 'media_files'>;
    let newest: number;
    if (env.DATABASE_URL) {
      await run('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        '--file',
        path.join(staging, DUMP_FILE.postgres),
        '--dbname',
        env.DATABASE_URL,
      ]);
      ({ counts, newest } = await withDatabase(env, (database) => readFacts(database.db)));
    } else {
      const pglite = await PGlite.create(pgliteDir(env));
      try {
        ({ counts, newest } = await readFacts(drizzle(pglite, { schema }) as unknown as Db));
        const tarball = await pglite.dumpDataDir('gzip');
        await writeFile(path.join(staging, DUMP_FILE.pglite), Buffer.from(await tarball.arrayBuffer()));
      } finally {
        await pglite.close();
      }
    }
    const mediaFiles = await copyMediaOut(createMediaStorage(env), path.join(staging, MEDIA));
    const proofFiles = await copyPrivateFiles(proofsDir(env.dataDir), path.join(staging, PROOFS));
    const manifest: BackupManifest = {
      created_at: now.toISOString(),
      database: kind,
      newest_migration: newest,
      counts: { ...counts, media_files: mediaFiles, proof_files: proofFiles },
    };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // The shop's own backup folder (under DATA_DIR) is tightened; a folder named with --pasta is created
    // 0700 but an existing one (a mount, a shared folder) keeps its mode: the archive itself is 0600.
    if (isInside(env.dataDir, outDir)) await ensurePrivateDir(outDir);
    else await mkdir(outDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const stamp = manifest.created_at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const plain = path.join(work, 'backup.tar.gz');
    await run('tar', ['-czf', plain, '-C', staging, '.']);
    const base = path.join(outDir, `passada-backup-${stamp}.tar.gz`);
    const file = env.BACKUP_ENCRYPTION_KEY ? `${base}.enc` : base;
    if (env.BACKUP_ENCRYPTION_KEY) await encryptBackupFile(plain, file, backupKey(env.BACKUP_ENCRYPTION_KEY));
    else {
      await copyFile(plain, file);
      await chmod(file, PRIVATE_FILE_MODE);
    }
    return { file, manifest };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export class RestoreRefused extends Error {}

/**
 * `npm run restore -- <archive>`: puts a backup back into the database and photo storage the
 * environment names, then counts orders, registrations and photos again and fails when they differ from
 * the manifest. The target must be empty (a fresh PostgreSQL database, no PGlite folder) unless
 * `force`: PGlite's folder is then moved aside, never deleted; PostgreSQL is restored over with
 * `--clean`. A PostgreSQL dump goes to PostgreSQL and a PGlite copy to PGlite. An encrypted archive is
 * decrypted with BACKUP_ENCRYPTION_KEY first, whole, and refused before anything is touched when the key
 * is missing or wrong or a byte was changed.
 */
export async function restoreBackup(
  env: Env,
  archive: string,
  opts: { force?: boolean; now?: Date } = {},
): Promise<{ manifest: BackupManifest; counts: BackupCounts }> {
  const work = await mkdtemp(path.join(tmpdir(), 'passada-restore-'));
  const staging = path.join(work, 'conteudo');
  try {
    await mkdir(staging, { mode: PRIVATE_DIR_MODE });
    let plain = archive;
    if (await isEncryptedBackup(archive)) {
      if (!env.BACKUP_ENCRYPTION_KEY) {
        throw new RestoreRefused(
          'Este backup é cifrado: defina BACKUP_ENCRYPTION_KEY com a chave usada quando ele foi feito.',
        );
      }
      plain = path.join(work, 'backup.tar.gz');
      try {
        await decryptBackupFile(archive, plain, backupKey(env.BACKUP_ENCRYPTION_KEY));
      } catch (error) {
        throw error instanceof BackupKeyError ? new RestoreRefused(error.message) : error;
      }
    }
    await run('tar', ['-xzf', plain, '-C', staging]);
    const manifest = JSON.parse(await readFile(path.join(staging, MANIFEST), 'utf8')) as BackupManifest;
    const target = env.DATABASE_URL ? 'postgres' : 'pglite';
    if (manifest.database !== target) {
      throw new RestoreRefused(
        `Este backup é de um banco ${manifest.database}, e o ambiente aponta para ${target}: restaure no mesmo tipo de banco.`,
      );
    }
    if (env.DATABASE_URL) {
      const empty = await withDatabase(env, isEmpty);
      if (!empty && !opts.force) {
        throw new RestoreRefused(
          'O banco de destino já tem tabelas: use um banco novo, ou --force para sobrescrevê-lo.',
        );
      }
      await run('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        ...(empty ? [] : ['--clean', '--if-exists']),
        '--dbname',
        env.DATABASE_URL,
        path.join(staging, DUMP_FILE.postgres),
      ]);
    } else {
      const dir = pgliteDir(env);
      if (existsSync(dir)) {
        if (!opts.force) {
          throw new RestoreRefused(
            `Já existe um banco em ${dir}: pare a loja e use --force (a pasta atual é guardada ao lado).`,
          );
        }
        const stamp = (opts.now ?? new Date()).toISOString().replace(/[-:.]/g, '');
        await rename(dir, `${dir}.antes-do-restore-${stamp}`);
      }
      await ensurePrivateDir(dir);
      const tarball = new Blob([await readFile(path.join(staging, DUMP_FILE.pglite))]);
      const pglite = await PGlite.create(dir, { loadDataDir: tarball });
      await pglite.close();
      tightenTreeSync(dir);
    }
    const mediaFiles = await copyMediaIn(path.join(staging, MEDIA), createMediaStorage(env));
    const proofFiles = await copyPrivateFiles(path.join(staging, PROOFS), proofsDir(env.dataDir));
    const { counts } = await withDatabase(env, (database) => readFacts(database.db));
    const restored = { ...counts, media_files: mediaFiles, proof_files: proofFiles };
    // Every count the manifest has (an older backup has no proofs' count) must come back.
    for (const key of Object.keys(manifest.counts) as Array<keyof BackupCounts>) {
      if (restored[key] !== manifest.counts[key]) {
        throw new Error(`Restauração incompleta: ${key} ${restored[key]} em vez de ${manifest.counts[key]}.`);
      }
    }
    return { manifest, counts: restored };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function pgliteDir(env: Env): string {
  return path.join(env.dataDir, 'pglite');
}

async function withDatabase<T>(env: Env, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: pgliteDir(env), poolMax: 2 });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

type Rows = { rows: Array<Record<string, unknown>> };

async function readFacts(db: Db): Promise<{ counts: Omit<BackupCounts, 'media_files'>; newest: number }> {
  const result = (await db.execute(sql`
    select (select count(*) from orders) as orders,
           (select count(*) from registrations) as registrations,
           (select count(*) from photos) as photos,
           (select max(created_at) from drizzle.__drizzle_migrations) as newest`)) as Rows;
  const row = result.rows[0] ?? {};
  return {
    counts: {
      orders: Number(row.orders),
      registrations: Number(row.registrations),
      photos: Number(row.photos),
    },
    newest: Number(row.newest ?? 0),
  };
}

async function isEmpty(database: Database): Promise<boolean> {
  const result = (await database.db.execute(
    sql`select count(*) as n from information_schema.tables where table_schema in ('public', 'drizzle', 'pgboss')`,
  )) as Rows;
  return Number(result.rows[0]?.n) === 0;
}

async function copyMediaOut(storage: MediaStorage, dir: string): Promise<number> {
  let count = 0;
  for await (const key of storage.list()) {
    const stored = await storage.get(key);
    if (!stored) continue;
    const file = path.join(dir, ...key.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(stored.body, createWriteStream(file));
    count++;
  }
  return count;
}

/**
 * The files of a private folder copied into another (created 0700, each file 0600): the proofs out into
 * the archive and back into DATA_DIR. A missing folder is none. Answers how many.
 */
async function copyPrivateFiles(from: string, to: string): Promise<number> {
  if (!existsSync(from)) return 0;
  const names = (await readdir(from, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  if (names.length === 0) return 0;
  await ensurePrivateDir(to);
  for (const name of names) {
    await copyFile(path.join(from, name), path.join(to, name));
    await chmod(path.join(to, name), PRIVATE_FILE_MODE);
  }
  return names.length;
}

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

async function copyMediaIn(dir: string, storage: MediaStorage): Promise<number> {
  if (!existsSync(dir)) return 0;
  let count = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(dir, file).split(path.sep).join('/');
    const type = CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream';
    await storage.put(key, await readFile(file), type);
    count++;
  }
  return count;
}
