import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags } from './e2e/chromium-flags.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// Each run starts the built shop on a fresh embedded database, seeded with the demo data.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'passada-e2e-'));
// Workers load this file again: sharing the folder lets tests read the server's outbox e-mails.
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  // A passing test never waits for this; under load (two shops and two browsers on two cores) specs that
  // take 50 s alone have come close to a one-minute limit.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'pt-BR',
    timezoneId: STORE_TIME_ZONE,
    // A failed test keeps its trace (actions, DOM snapshots, network) and a screenshot of the end. The trace
    // records no screencast: its frames were about a quarter of the browser's CPU on every passing test
    // (decision 0088).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumFlags },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'npm start',
    cwd: path.resolve(import.meta.dirname, '../..'),
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      PAYMENTS: 'simulado',
      MAIL_PROVIDER: 'outbox',
      // A fresh secret per run: kit-pickup QR codes are read back from what the server signed.
      CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      // The demo catalogue and the demo staff logins (PAYMENTS=simulado) the specs sign in with.
      SEED_DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseURL,
      // The shortest Pix lifetime the server takes, so a test can watch a code expire.
      PIX_EXPIRATION_SECONDS: '60',
      // Every test signs up from the same address; the hourly limit per address is for the public shop.
      SIGNUP_RATE_LIMIT_MAX: '1000',
      // The same for the back office's sign-in, which every painel spec goes through.
      PAINEL_LOGIN_RATE_LIMIT_PER_IP: '1000',
    },
  },
});
