import path from 'node:path';
import { parseArgs } from 'node:util';
import { EnvError, loadEnv } from '../src/config/env.ts';
import { restoreBackup } from '../src/ops/backup.ts';

/**
 * `npm run restore -- <arquivo.tar.gz | arquivo.tar.gz.enc> [--force]`: puts a backup back into the database and photo
 * storage the environment names, then checks the counts against the backup's manifest
 * (docs/operations.md "A way back"); an encrypted one needs BACKUP_ENCRYPTION_KEY. Stop the shop first; start it afterwards to apply newer migrations.
 */
async function main() {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const archive = positionals[0];
  if (!archive)
    throw new Error('Informe o arquivo do backup: npm run restore -- <arquivo.tar.gz ou .tar.gz.enc>');
  const env = loadEnv();
  const { manifest, counts } = await restoreBackup(env, path.resolve(archive), { force: values.force });
  console.log(
    `Backup de ${manifest.created_at} restaurado: ${counts.orders} pedidos, ${counts.registrations} inscrições, ${counts.photos} fotos (${counts.media_files} arquivos), conferidos com o backup.`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
  process.exit(1);
});
