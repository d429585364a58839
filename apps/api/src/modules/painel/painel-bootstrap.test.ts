import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuditPageSchema, STAFF_ROLES } from '@passada/core/contracts/painel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { DEMO_STAFF } from '../../db/seed/staff.ts';
import { prepareApp } from '../../startup.ts';
import { createTestDatabase } from '../../test/test-app.ts';

const DEMO_ADMIN = { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password };
/** Efí's settings, present but never called: nothing here pays. */
const EFI = {
  PAYMENTS: 'efi',
  EFI_CLIENT_ID: 'cliente',
  EFI_CLIENT_SECRET: 'segredo',
  EFI_ACCOUNT_ID: '123456',
  EFI_CERTIFICATE_BASE64: 'bm90LWEtY2VydGlmaWNhdGU=',
};

/**
 * Starts the shop as main.ts does (migrations, seed, app, ready) on `database`, with a production-like
 * environment: the start-up path itself is what these tests check.
 */
async function start(database: Database, env: Record<string, string>): Promise<FastifyInstance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'passada-start-'));
  dirs.push(dataDir);
  return prepareApp(
    loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      MAIL_PROVIDER: 'outbox',
      SEED_DEMO_DATA: 'true',
      ...env,
    }),
    database,
  );
}
const dirs: string[] = [];

const signIn = (app: FastifyInstance, who: { email: string; password: string }) =>
  app.inject({ method: 'POST', url: '/api/painel/auth/login/', payload: who });

describe('painel: a start with real payments on an empty database', () => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await start(database, {
      ...EFI,
      ADMIN_EMAIL: 'Dona@Loja.com.br',
      ADMIN_PASSWORD: 'uma-senha-so-dela-7',
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the demo catalogue but no demo login, and creates the ADMIN_EMAIL admin', async () => {
    const products = await app.inject({ method: 'GET', url: '/api/products/' });
    expect(products.statusCode).toBe(200);
    // Before: the README's admin signed in here, and ADMIN_EMAIL was skipped because an admin existed.
    const demo = await signIn(app, DEMO_ADMIN);
    expect(demo.statusCode).toBe(401);
    const owner = await signIn(app, { email: 'dona@loja.com.br', password: 'uma-senha-so-dela-7' });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().staff).toMatchObject({ role: 'admin', active: true });
    const headers = { authorization: `Token ${owner.json().token}` };
    const staff = (await app.inject({ method: 'GET', url: '/api/painel/staff/', headers })).json();
    expect(staff.map((s: { email: string }) => s.email)).toEqual(['dona@loja.com.br']);
  });

  it('makes ADMIN_EMAIL an active admin again at the next start, keeping the password the person chose', async () => {
    const owner = await signIn(app, { email: 'dona@loja.com.br', password: 'uma-senha-so-dela-7' });
    const headers = { authorization: `Token ${owner.json().token}` };
    const second = await app.inject({
      method: 'POST',
      url: '/api/painel/staff/',
      headers,
      payload: { email: 'caixa@loja.com.br', name: 'Caixa', role: 'admin', password: 'senha-do-caixa-31' },
    });
    expect(second.statusCode).toBe(201);
    const changed = await app.inject({
      method: 'POST',
      url: '/api/painel/auth/password/',
      headers,
      payload: { senha_atual: 'uma-senha-so-dela-7', nova_senha: 'trocada-depois-88' },
    });
    expect(changed.statusCode).toBe(204);
    // The other admin demotes and deactivates her.
    const other = await signIn(app, { email: 'caixa@loja.com.br', password: 'senha-do-caixa-31' });
    const otherHeaders = { authorization: `Token ${other.json().token}` };
    const demoted = await app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${owner.json().staff.id}/`,
      headers: otherHeaders,
      payload: { role: 'operador', active: false },
    });
    expect(demoted.statusCode).toBe(200);
    expect((await signIn(app, { email: 'dona@loja.com.br', password: 'trocada-depois-88' })).statusCode).toBe(
      401,
    );

    await app.close();
    app = await start(database, {
      ...EFI,
      ADMIN_EMAIL: 'dona@loja.com.br',
      ADMIN_PASSWORD: 'uma-senha-so-dela-7',
    });
    const again = await signIn(app, { email: 'dona@loja.com.br', password: 'trocada-depois-88' });
    expect(again.statusCode).toBe(200);
    expect(again.json().staff).toMatchObject({ role: 'admin', active: true });
    expect(
      (await signIn(app, { email: 'dona@loja.com.br', password: 'uma-senha-so-dela-7' })).statusCode,
    ).toBe(401);
    const log = AuditPageSchema.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/painel/audit/?entity=equipe',
          headers: { authorization: `Token ${again.json().token}` },
        })
      ).json(),
    );
    expect(log.results.find((e) => e.action === 'promovido_no_inicio')).toMatchObject({
      staff_email: 'sistema',
      before: { role: 'operador', active: false },
      after: { role: 'admin', active: true },
    });
  });
});

describe('painel: demo logins and the first admin at start', () => {
  const opened: { app?: FastifyInstance; database: Database }[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.app?.close();
      await o.database.close();
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the demo logins with simulated payments, as the README says', async () => {
    const database = await createTestDatabase();
    const app = await start(database, { PAYMENTS: 'simulado' });
    opened.push({ app, database });
    const demo = await signIn(app, DEMO_ADMIN);
    expect(demo.statusCode).toBe(200);
    expect(demo.json().staff.role).toBe('admin');
    // One login per preset role; the volunteer checks in one demo event only.
    const volunteer = DEMO_STAFF.find((s) => s.role === 'checkin')!;
    const asVolunteer = await signIn(app, { email: volunteer.email, password: volunteer.password });
    expect(asVolunteer.json().staff).toMatchObject({ role: 'checkin', eventos: [expect.any(Number)] });
    expect(new Set(DEMO_STAFF.map((s) => s.role))).toEqual(new Set(STAFF_ROLES));
  });

  it('deactivates a demo login that still has the public password when the shop starts with real payments', async () => {
    const database = await createTestDatabase();
    const demoShop = await start(database, { PAYMENTS: 'simulado' });
    await demoShop.close();
    const app = await start(database, {
      ...EFI,
      ADMIN_EMAIL: 'dona@loja.com.br',
      ADMIN_PASSWORD: 'uma-senha-so-dela-7',
    });
    opened.push({ app, database });
    expect((await signIn(app, DEMO_ADMIN)).statusCode).toBe(401);
    expect(
      (await signIn(app, { email: DEMO_STAFF[1].email, password: DEMO_STAFF[1].password })).statusCode,
    ).toBe(401);
    expect(
      (await signIn(app, { email: 'dona@loja.com.br', password: 'uma-senha-so-dela-7' })).statusCode,
    ).toBe(200);
  });

  it('refuses to bring a demo login back as ADMIN_EMAIL while it has the public password', async () => {
    const database = await createTestDatabase();
    const demoShop = await start(database, { PAYMENTS: 'simulado' });
    await demoShop.close();
    opened.push({ database });
    const failure = await start(database, {
      ...EFI,
      ADMIN_EMAIL: DEMO_ADMIN.email,
      ADMIN_PASSWORD: 'uma-senha-so-dela-7',
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EnvError);
    expect((failure as Error).message).toContain(
      'ADMIN_EMAIL: admin@passada.com.br é uma conta de demonstração',
    );
  });

  it('refuses to start when ADMIN_PASSWORD is a common password, saying so', async () => {
    const database = await createTestDatabase();
    opened.push({ database });
    const failure = await start(database, {
      ...EFI,
      ADMIN_EMAIL: 'dona@loja.com.br',
      ADMIN_PASSWORD: 'password123',
      SEED_DEMO_DATA: 'false',
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EnvError);
    expect((failure as Error).message).toContain('ADMIN_PASSWORD: Esta senha é muito comum');
  });
});
