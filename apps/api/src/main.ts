import path from 'node:path';
import { EnvError, loadEnv } from './config/env.ts';
import { openDatabase } from './db/client.ts';
import { ensurePrivateDirSync } from './ops/private-files.ts';
import { prepareApp } from './startup.ts';

async function main() {
  const env = loadEnv();
  // DATA_DIR holds the embedded database, the outboxes and the backups: only the shop's user enters it.
  ensurePrivateDirSync(env.dataDir);
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: path.join(env.dataDir, 'pglite'),
    poolMax: env.DB_POOL_MAX,
    preparedStatements: env.DB_PREPARED_STATEMENTS,
  });
  // Several processes may start at once on one empty database: one migrates, seeds and sets up the
  // job queue's tables (app.ready starts it), the others wait and then find the work done.
  const app = await database.withStartupLock(() => prepareApp(env, database));
  let closing = false;
  // Graceful: the listener stops taking connections, requests in flight get their answers
  // (app.close waits for them), running jobs finish (the jobs plugin's onClose), then the pool goes.
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: encerrando após as requisições em andamento`);
    try {
      await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_GRACE_SECONDS * 1000));
      // A keep-alive connection whose request finishes after close began would otherwise hold the
      // server open until its idle timeout; close each one as soon as it has nothing left to answer.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      await app.close();
      clearInterval(sweep);
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
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
