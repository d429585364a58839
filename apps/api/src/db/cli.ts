import path from 'node:path';
import { loadEnv } from '../config/env.ts';
import { openDatabase } from './client.ts';
import { demoStaffAllowed, seedIfEmpty } from './seed/index.ts';

const command = process.argv[2];
const env = loadEnv();
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: path.join(env.dataDir, 'pglite') });
try {
  await database.withStartupLock(async () => {
    await database.migrate();
    if (command === 'seed') {
      // The demo staff logins only with simulated payments, as at start (docs/decisions/0023).
      const seeded = await seedIfEmpty(database.db, { staff: demoStaffAllowed(env) });
      console.log(seeded ? 'Dados de demonstração inseridos.' : 'O banco já tinha dados; nada foi inserido.');
    } else {
      console.log('Migrações aplicadas.');
    }
  });
} finally {
  await database.close();
}
