import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../config/env.ts';

const mainFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

/** A port nobody listens on right now (the OS picks it). */
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

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM by default) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the real server (`src/main.ts`, as `npm start` does) as a child process on a free port and
 * waits until /api/health answers. For tests of several processes, start-up races and shutdown.
 */
export async function startServer(opts: {
  databaseUrl: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'passada-proc-'));
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: opts.databaseUrl,
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      SEED_DEMO_DATA: 'false',
      // Production asks for these explicitly; tests use the offline ones.
      PAYMENTS: 'simulado',
      MAIL_PROVIDER: 'outbox',
      CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 90_000);
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`the server exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    exited,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
