import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STORE_TIME_ZONE } from '@passada/core/calendar';
import type { Browser, BrowserContext } from '@playwright/test';

/**
 * A second shop for the specs that need settings the default end-to-end server does not run with (a
 * label provider, the monthly NFS-e): the built server (`apps/api/dist/main.js`, as `npm start` runs it)
 * in a process of its own, on its own port and data folder, seeded with the demo data; and the fakes of
 * outside services it talks to, each in a process of its own as well (the web app's code never imports
 * the API's, docs/architecture.md §9).
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A port nobody listens on right now (the OS picks it). */
function freePort(): Promise<number> {
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

function watch(child: ChildProcess) {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Fake {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts one of the API's strict fakes (`apps/api/src/test/mocks/<file>`) as a process; it prints
 * `{"url": …}` once it listens.
 */
export async function startFake(file: string, env: Record<string, string> = {}): Promise<Fake> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('apps/api/src/test/mocks', file)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = watch(child);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = proc
      .output()
      .split('\n')
      .find((l) => l.startsWith('{"url":'));
    if (line) return { url: (JSON.parse(line) as { url: string }).url, stop: proc.stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await proc.stop();
      throw new Error(`the fake ${file} did not start:\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Shop {
  url: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the built shop on a free port over `dataDir` (a fresh one unless given: a shop started again
 * on the same folder keeps its database). `clockOffsetMs` moves the process's clock (through
 * `shifted-clock.mjs`) for a sale that must be dated in another month.
 */
export async function startShop(
  opts: { env?: Record<string, string>; dataDir?: string; clockOffsetMs?: number } = {},
): Promise<Shop> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'passada-e2e-shop-'));
  const clock = opts.clockOffsetMs ? ['--import', path.join(import.meta.dirname, 'shifted-clock.mjs')] : [];
  const child = spawn(process.execPath, [...clock, '--enable-source-maps', 'apps/api/dist/main.js'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      PAYMENTS: 'simulado',
      MAIL_PROVIDER: 'outbox',
      CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      SEED_DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: url,
      SIGNUP_RATE_LIMIT_MAX: '1000',
      PAINEL_LOGIN_RATE_LIMIT_PER_IP: '1000',
      TEAM_CODE_LOOKUP_RATE_LIMIT_PER_IP: '1000',
      ...(opts.clockOffsetMs ? { E2E_CLOCK_OFFSET_MS: String(opts.clockOffsetMs) } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = watch(child);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop exited before it was ready:\n${proc.output()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`the shop was not ready in time:\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, dataDir, output: proc.output, stop: proc.stop };
}

/** Removes a shop's data folder once it has stopped. */
export function removeShopData(shop: Shop): void {
  rmSync(shop.dataDir, { recursive: true, force: true });
}

/** A browser context on `shop`, with the locale and time zone the other specs run with. */
export function shopContext(browser: Browser, shop: Shop): Promise<BrowserContext> {
  return browser.newContext({ baseURL: shop.url, locale: 'pt-BR', timezoneId: STORE_TIME_ZONE });
}
