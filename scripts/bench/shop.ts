import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '../..');
export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resident memory of a process in MB, read from /proc (Linux). */
export function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU time (user + system) a process has used so far, in ms, read from /proc (Linux). */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    // Clock ticks of 10 ms (Linux's USER_HZ).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0; // The process has ended.
  }
}

export interface Shop {
  baseURL: string;
  pid: number;
  /** From spawn to the first 200 of /api/health. */
  startupMs: number;
  /** Whether it runs the compiled JavaScript (apps/api/dist) or the TypeScript sources. */
  compiled: boolean;
  databaseUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * The command `npm start` runs, without npm in between, so the pid is the server's own process and
 * its memory is the server's alone.
 */
function serverCommand(shopRoot: string): { args: string[]; compiled: boolean } {
  // BENCH_CPU_PROF=<folder>: each server writes a V8 CPU profile there when it stops (open it in
  // Chrome DevTools, Performance panel, or speedscope).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  const compiled = path.join(shopRoot, 'apps/api/dist/main.js');
  if (existsSync(compiled)) return { args: [...profile, '--enable-source-maps', compiled], compiled: true };
  return {
    args: [...profile, '--import', 'tsx', path.join(shopRoot, 'apps/api/src/main.ts')],
    compiled: false,
  };
}

async function waitForHealth(baseURL: string, shop: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (shop.exitCode !== null) throw new Error(`the shop exited with code ${shop.exitCode}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the shop did not answer /api/health within 120 s');
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `passada_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * Starts the built shop with demo data on a free port: on a fresh embedded database or a fresh PostgreSQL
 * one. `shopRoot` is the checkout to run (another one, to measure an older version); this one by default.
 */
export async function startShop(
  database: 'pglite' | 'postgres',
  extraEnv: Record<string, string> = {},
  shopRoot = root,
): Promise<Shop> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'passada-bench-'));
  // A DATABASE_URL given in `extraEnv` is another shop's database: a second process on the same data.
  const pgDatabase = database === 'postgres' && !extraEnv.DATABASE_URL ? await createDatabase() : null;
  const { args, compiled } = serverCommand(shopRoot);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: shopRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      // Production wants these chosen explicitly; the bench pays and mails nowhere real, and buys
      // from the demo catalogue.
      PAYMENTS: 'simulado',
      MAIL_PROVIDER: 'outbox',
      CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      SEED_DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseURL,
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : { DATABASE_URL: '' }),
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const cleanUp = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await pgDatabase?.drop();
  };
  try {
    await waitForHealth(baseURL, child);
  } catch (error) {
    child.kill('SIGKILL');
    await cleanUp();
    throw error;
  }
  const startupMs = performance.now() - started;
  return {
    baseURL,
    pid: child.pid!,
    startupMs,
    compiled,
    databaseUrl: pgDatabase?.url ?? extraEnv.DATABASE_URL,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // Writing a CPU profile on exit takes a few seconds more.
      const timer = setTimeout(() => child.kill('SIGKILL'), process.env.BENCH_CPU_PROF ? 30_000 : 5000);
      await exited;
      clearTimeout(timer);
      await cleanUp();
    },
  };
}
