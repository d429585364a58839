import path from 'node:path';
import { buildApp } from './app.ts';
import { EnvError, loadEnv } from './config/env.ts';
import { openDatabase } from './db/client.ts';
import { seedIfEmpty } from './db/seed/index.ts';

async function main() {
  const env = loadEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'pglite') });
  await database.migrate();
  if (env.SEED_DEMO_DATA) await seedIfEmpty(database.db);
  const app = await buildApp({ env, database });
  const close = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(`${env.STORE_NAME} em ${env.publicUrl} (banco: ${database.kind})`);
}

main().catch((error) => {
  if (error instanceof EnvError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
