import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Env } from './config/env.ts';
import type { Database } from './db/client.ts';
import { seedOnStart } from './db/seed/index.ts';
import { redrawGeneratedPosters } from './modules/events/events-admin.ts';

/**
 * What every start does before it listens, main.ts runs it under the start-up lock: migrations, the
 * demo data when SEED_DEMO_DATA (its staff logins only with PAYMENTS=simulado), then the app, whose
 * ready step ensures ADMIN_EMAIL's admin and sets up the job queue (docs/decisions/0023). Generated race
 * posters get the address of the current drawing (docs/decisions/0053).
 */
export async function prepareApp(env: Env, database: Database): Promise<FastifyInstance> {
  await database.migrate();
  await seedOnStart(database.db, env);
  await redrawGeneratedPosters(database.db);
  const app = await buildApp({ env, database });
  await app.ready();
  return app;
}
