import path from 'node:path';
import { parseArgs } from 'node:util';
import { EnvError, loadEnv } from '../src/config/env.ts';
import { createBackup } from '../src/ops/backup.ts';

/**
 * `npm run backup [-- --pasta <dir>]`: the database and the photos in one dated archive, under BACKUP_DIR
 * by default (docs/operations.md "A way back"), encrypted when BACKUP_ENCRYPTION_KEY is set. With the
 * embedded database, stop the shop first.
 */
async function main() {
  const { values } = parseArgs({ options: { pasta: { type: 'string' } } });
  const env = loadEnv();
  const out = values.pasta ? path.resolve(values.pasta) : path.resolve(env.dataDir, env.BACKUP_DIR);
  const { file, manifest } = await createBackup(env, out);
  const c = manifest.counts;
  console.log(
    `Backup ${env.BACKUP_ENCRYPTION_KEY ? 'cifrado ' : ''}salvo em ${file}: ${c.orders} pedidos, ${c.registrations} inscrições, ${c.photos} fotos (${c.media_files} arquivos).`,
  );
  if (!env.BACKUP_ENCRYPTION_KEY) {
    console.log('Sem BACKUP_ENCRYPTION_KEY o arquivo não é cifrado: guarde-o só onde ninguém mais o leia.');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
  process.exit(1);
});
