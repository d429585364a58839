import { AuditPageSchema, StaffSessionSchema, TotpSetupSchema } from '@passada/core/contracts/painel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserAndToken } from '../../test/factories/accounts.ts';
import { createStaffAndLogin, type TestStaff, totpCode } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every operation under /api/painel/ the OpenAPI document publishes, path ids filled with 1. */
async function painelOperations(t: TestApp): Promise<Array<{ method: Method; url: string }>> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/painel/'))
    .flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => ({
        method: m.toUpperCase() as Method,
        url: path.replace(/\{[^}]+\}/g, '1'),
      })),
    );
}

describe('painel: access', () => {
  let t: TestApp;
  let clock = new Date('2026-03-10T12:00:00Z');
  let admin: TestStaff;
  let operator: TestStaff;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    admin = await createStaffAndLogin(t.app, 'admin');
    operator = await createStaffAndLogin(t.app, 'operador');
  });
  afterAll(() => t.close());

  it('refuses anonymous calls and customer tokens on every /api/painel/ operation but sign-in', async () => {
    const ops = await painelOperations(t);
    expect(ops.length).toBeGreaterThan(15);
    const customer = await createUserAndToken(t.app);
    for (const op of ops) {
      const anonymous = await t.app.inject({ ...op, payload: {} });
      const asCustomer = await t.app.inject({ ...op, headers: customer.headers, payload: {} });
      if (op.url === '/api/painel/auth/login/') {
        expect(anonymous.statusCode, `${op.method} ${op.url}`).toBe(400);
        continue;
      }
      expect(anonymous.statusCode, `${op.method} ${op.url}`).toBe(401);
      expect(anonymous.json().code).toBe('not_authenticated');
      expect(asCustomer.statusCode, `${op.method} ${op.url} (cliente)`).toBe(401);
    }
  });

  it('keeps operators out of staff, audit and product edits but lets them read and move stock', async () => {
    const denied = [
      { method: 'GET', url: '/api/painel/staff/' },
      { method: 'GET', url: '/api/painel/audit/' },
      { method: 'POST', url: '/api/painel/products/' },
      { method: 'PATCH', url: '/api/painel/products/1/' },
    ] as const;
    for (const op of denied) {
      const res = await t.app.inject({ ...op, headers: operator.headers, payload: {} });
      expect(res.statusCode, `${op.method} ${op.url}`).toBe(403);
      expect(res.json().detail).toBe('Seu perfil não tem acesso a esta função.');
    }
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/painel/products/',
      headers: operator.headers,
    });
    expect(list.statusCode).toBe(200);
    const low = await t.app.inject({
      method: 'GET',
      url: '/api/painel/stock/low/',
      headers: operator.headers,
    });
    expect(low.statusCode).toBe(200);
  });

  it('signs in with a token that a customer route does not accept, and signs out', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/login/',
      payload: { email: admin.email.toUpperCase(), password: admin.password },
    });
    expect(login.statusCode).toBe(200);
    const session = StaffSessionSchema.parse(login.json());
    expect(session.staff).toMatchObject({ email: admin.email, role: 'admin', totp_enabled: false });
    const headers = { authorization: `Token ${session.token}` };
    const customerRoute = await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers });
    expect(customerRoute.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/painel/auth/me/', headers })).statusCode).toBe(
      200,
    );
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/painel/auth/logout/', headers })).statusCode,
    ).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/painel/auth/me/', headers })).statusCode).toBe(
      401,
    );
  });

  it('ends sessions after PAINEL_SESSION_TTL_HOURS (8 h by default)', async () => {
    const me = await createStaffAndLogin(t.app, 'operador');
    const saved = clock;
    clock = new Date(saved.getTime() + 8 * 3_600_000 + 1000);
    const res = await t.app.inject({ method: 'GET', url: '/api/painel/auth/me/', headers: me.headers });
    clock = saved;
    expect(res.statusCode).toBe(401);
  });

  it('refuses a wrong password with one message and locks the account after 10 failures', async () => {
    const victim = await createStaffAndLogin(t.app, 'operador');
    const wrong = { email: victim.email, password: 'senha-errada-123' };
    const first = await t.app.inject({ method: 'POST', url: '/api/painel/auth/login/', payload: wrong });
    expect(first.statusCode).toBe(401);
    expect(first.json().detail).toBe('E-mail ou senha incorretos.');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/login/',
      payload: { email: 'ninguem@passada.com.br', password: 'qualquer-coisa' },
    });
    expect(unknown.json().detail).toBe('E-mail ou senha incorretos.');
    for (let i = 0; i < 9; i++)
      await t.app.inject({ method: 'POST', url: '/api/painel/auth/login/', payload: wrong });
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/login/',
      payload: { email: victim.email, password: victim.password },
    });
    expect(locked.statusCode).toBe(429);
  });

  it('turns on TOTP with a QR code, then asks for a fresh code at sign-in', async () => {
    const me = await createStaffAndLogin(t.app, 'operador');
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/2fa/setup/',
      headers: me.headers,
    });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_code } = TotpSetupSchema.parse(setup.json());
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/2fa/enable/',
      headers: me.headers,
      payload: { codigo: '000000' },
    });
    expect(bad.statusCode).toBe(400);
    const enable = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/2fa/enable/',
      headers: me.headers,
      payload: { codigo: totpCode(secret, clock) },
    });
    expect(enable.json()).toMatchObject({ totp_enabled: true });

    const login = (codigo?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/auth/login/',
        payload: { email: me.email, password: me.password, ...(codigo ? { codigo } : {}) },
      });
    const withoutCode = await login();
    expect(withoutCode.statusCode).toBe(401);
    expect(withoutCode.json().code).toBe('codigo_2fa_necessario');
    // The code that turned 2FA on was spent; the next period's code works once.
    clock = new Date(clock.getTime() + 30_000);
    const code = totpCode(secret, clock);
    expect((await login(code)).statusCode).toBe(200);
    const replay = await login(code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('codigo_2fa_invalido');
  });

  it('records staff changes in the audit log that only admins read', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/painel/staff/',
      headers: admin.headers,
      payload: {
        email: 'nova@passada.com.br',
        name: 'Nova Operadora',
        role: 'operador',
        password: 'troca-de-turno-7',
      },
    });
    expect(created.statusCode).toBe(201);
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/painel/staff/',
      headers: admin.headers,
      payload: {
        email: 'NOVA@passada.com.br',
        name: 'Outra',
        role: 'operador',
        password: 'troca-de-turno-8',
      },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors.email).toBe('Já existe uma conta da equipe com este e-mail.');

    const id = created.json().id;
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${id}/`,
      headers: admin.headers,
      payload: { role: 'admin' },
    });
    expect(promoted.json().role).toBe('admin');

    const log = AuditPageSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/api/painel/audit/?entity=equipe', headers: admin.headers })
      ).json(),
    );
    const change = log.results.find((e) => e.action === 'alterado' && e.entity_id === String(id));
    expect(change).toMatchObject({
      staff_email: admin.email,
      before: { role: 'operador' },
      after: { role: 'admin' },
    });
    expect(JSON.stringify(log.results)).not.toMatch(/argon2|password_hash|totp_secret/i);
  });
});

describe('painel: first admin and mandatory 2FA', () => {
  let t: TestApp;
  const clock = new Date('2026-03-10T12:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({
      now: () => clock,
      env: {
        ADMIN_EMAIL: 'Dona@Passada.com.br',
        ADMIN_PASSWORD: 'primeira-senha-9',
        PAINEL_REQUIRE_2FA: 'true',
      },
    });
  });
  afterAll(() => t.close());

  it('creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD and lets it only set up 2FA until it is on', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/login/',
      payload: { email: 'dona@passada.com.br', password: 'primeira-senha-9' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ precisa_ativar_2fa: true, staff: { role: 'admin' } });
    const headers = { authorization: `Token ${login.json().token}` };
    const blocked = await t.app.inject({ method: 'GET', url: '/api/painel/products/', headers });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('2fa_obrigatorio');

    const { secret } = (
      await t.app.inject({ method: 'POST', url: '/api/painel/auth/2fa/setup/', headers })
    ).json();
    const on = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/2fa/enable/',
      headers,
      payload: { codigo: totpCode(secret, clock) },
    });
    expect(on.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/painel/products/', headers })).statusCode).toBe(
      200,
    );
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/2fa/disable/',
      headers,
      payload: { codigo: totpCode(secret, new Date(clock.getTime() + 30_000)) },
    });
    expect(off.statusCode).toBe(409);

    // She is the only admin: the shop is never left without one.
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${login.json().staff.id}/`,
      headers,
      payload: { role: 'operador' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('ultimo_admin');
  });

  it('does not create a second admin at the next start', async () => {
    expect(await t.app.staff.secureOnStart()).toEqual([]);
  });
});
