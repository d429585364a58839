import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type Database, openDatabase } from '../db/client.ts';
import { jobCatalog } from '../jobs/job-catalog.ts';
import { createJobs } from '../jobs/jobs.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data folder (`dumpDataDir`), when the files run on PGlite. */
    pgliteTemplate: string | null;
    /** A migrated database on the TEST_DATABASE_URL server that files copy, when they run on PostgreSQL. */
    postgresTemplate: string | null;
  }
}

/**
 * Builds once per run what every API test file used to build for itself: an empty database with all
 * migrations applied and the job queue's tables and queues (what the app's first start creates).
 * `createTestDatabase` (test-app.ts) copies it for each file, which stays as isolated as before: a
 * new in-memory PGlite loaded from the tarball, or `create database … template …` on PostgreSQL.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'passada-template-'));
    const database = await openDatabase({ dataDir: 'memory://' });
    await prepareTemplate(database);
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const file = path.join(dir, 'pglite.tar');
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    await database.close();
    project.provide('pgliteTemplate', file);
    project.provide('postgresTemplate', null);
    return async () => rmSync(dir, { recursive: true, force: true });
  }

  const name = `passada_tpl_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolMax: 1 });
  try {
    await prepareTemplate(database);
  } finally {
    // A template must have no open connection while a file copies it.
    await database.close();
  }
  project.provide('pgliteTemplate', null);
  project.provide('postgresTemplate', name);
  return () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}

/** Migrations, then the queue's schema and the catalog's queues, as a web-only start sets them up. */
async function prepareTemplate(database: Database): Promise<void> {
  await database.migrate();
  const silent = () => {};
  const jobs = createJobs({
    database,
    log: { info: silent, warn: silent, error: (obj, msg) => console.error(msg, obj) },
    catalog: jobCatalog,
    work: false,
  });
  await jobs.start();
  await jobs.stop();
}

/** One statement on its own connection (create/drop database cannot run in a pool's transaction). */
export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
