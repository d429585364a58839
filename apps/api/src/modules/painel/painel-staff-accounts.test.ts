import {
  AuditPageSchema,
  RecoveryCodesSchema,
  StaffMeSchema,
  TotpEnabledSchema,
  TotpSetupSchema,
} from '@passada/core/contracts/painel';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffRecoveryCodes } from '../../db/schema/index.ts';
import { createStaffAndLogin, type TestStaff, totpCode, turnOnTotp } from '../../test/factories/painel.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const LOGIN = '/api/painel/auth/login/';

describe('painel: sign-in that an attacker cannot turn against its owner', () => {
  let t: TestApp;
  let clock = new Date('2026-03-10T12:00:00Z');
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  let admin: TestStaff;
  const login = (payload: Record<string, unknown>, remoteAddress = '198.51.100.20') =>
    t.app.inject({ method: 'POST', url: LOGIN, payload, remoteAddress });

  beforeAll(async () => {
    // The per-address limit has its own test below; here many e-mails are tried from one address.
    t = await createTestApp({ now: () => clock, env: { PAINEL_LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  it('lets the owner in while someone tries one wrong password every 15 minutes', async () => {
    const victim = await createStaffAndLogin(t.app, 'admin');
    // Thirty hours of one guess per 15 minutes and a second: before, the 10th guess locked the
    // account and every later one locked it again as soon as the lock ran out.
    for (let i = 0; i < 30; i++) {
      later(15 * 60_000 + 1000);
      const guess = await login({ email: victim.email, password: `chute-${i}-errado` });
      expect(guess.statusCode, `guess ${i}`).toBe(401);
    }
    later(60_000);
    expect((await login({ email: victim.email, password: victim.password })).statusCode).toBe(200);
  });

  it('lifts a lock when it runs out: the count starts again instead of locking at the next typo', async () => {
    const victim = await createStaffAndLogin(t.app, 'operador');
    for (let i = 0; i < 10; i++) await login({ email: victim.email, password: 'senha-errada-123' });
    const locked = await login({ email: victim.email, password: victim.password });
    expect(locked.statusCode).toBe(429);
    later(15 * 60_000 + 1000);
    // One typo after the lock: before, the old count (10) locked the account again at once.
    expect((await login({ email: victim.email, password: 'senha-errada-123' })).statusCode).toBe(401);
    expect((await login({ email: victim.email, password: victim.password })).statusCode).toBe(200);
  });

  it('forgets the failures after a successful sign-in', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    for (let i = 0; i < 9; i++) await login({ email: member.email, password: 'senha-errada-123' });
    expect((await login({ email: member.email, password: member.password })).statusCode).toBe(200);
    // Nine more typos: only the ones since the success count, so no lock.
    for (let i = 0; i < 9; i++) await login({ email: member.email, password: 'senha-errada-123' });
    expect((await login({ email: member.email, password: member.password })).statusCode).toBe(200);
  });

  it('answers a known and an unknown e-mail alike, failure after failure, lock included', async () => {
    const known = await createStaffAndLogin(t.app, 'operador');
    const answers = async (email: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await login({ email, password: 'senha-errada-123' });
        seen.push(`${res.statusCode} ${res.json().code} ${res.json().detail}`);
      }
      return seen;
    };
    const forKnown = await answers(known.email);
    // Upper case and spaces are the same e-mail: they count together.
    const forUnknown = await answers(`  NINGUEM.${process.pid}@passada.com.br `);
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown[0]).toBe('401 not_authenticated E-mail ou senha incorretos.');
    expect(forKnown[10]).toMatch(/^429 rate_limited Muitas tentativas/);
    expect((await login({ email: `ninguem.${process.pid}@passada.com.br`, password: 'x' })).statusCode).toBe(
      429,
    );
  });

  it('writes sign-ins, refusals and the lock-out in the audit log, never the password', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    for (let i = 0; i < 10; i++) await login({ email: member.email, password: 'senha-errada-123' });
    const log = AuditPageSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/api/painel/audit/?entity=equipe', headers: admin.headers })
      ).json(),
    );
    const mine = log.results.filter((e) => e.staff_email === member.email);
    expect(mine.filter((e) => e.action === 'entrada_recusada')).toHaveLength(10);
    expect(mine.find((e) => e.action === 'bloqueado')).toMatchObject({
      entity_id: String(member.id),
      after: { ip: '198.51.100.20', motivo: 'senha' },
    });
    expect(mine.find((e) => e.action === 'entrou')).toMatchObject({ after: { metodo: 'senha' } });
    expect(JSON.stringify(log.results)).not.toContain('senha-errada-123');
  });

  it('counts code guesses at sign-in; the password alone, asking for the code, neither counts nor resets', async () => {
    const me = await createStaffAndLogin(t.app, 'operador');
    const secret = await turnOnTotp(t.app, me.headers, clock);
    const step1 = () => login({ email: me.email, password: me.password });
    // Nine wrong codes, each followed by the first step: that step must not wipe them.
    for (let i = 0; i < 9; i++) {
      expect(
        (await login({ email: me.email, password: me.password, codigo: String(200000 + i) })).statusCode,
      ).toBe(401);
      expect((await step1()).json().code).toBe('codigo_2fa_necessario');
    }
    // The two-step sign-in's first step never costs an attempt: the owner still gets in…
    later(30_000);
    expect((await step1()).json().code).toBe('codigo_2fa_necessario');
    expect(
      (await login({ email: me.email, password: me.password, codigo: totpCode(secret, clock) })).statusCode,
    ).toBe(200);
    // …and the tenth wrong code in a row locks.
    for (let i = 0; i < 10; i++) await login({ email: me.email, password: me.password, codigo: '999999' });
    expect((await step1()).statusCode).toBe(429);
  });

  it('limits guessing the code that turns two-step sign-in off like sign-in', async () => {
    const me = await createStaffAndLogin(t.app, 'operador');
    const secret = await turnOnTotp(t.app, me.headers, clock);
    const disable = (codigo: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/auth/2fa/disable/',
        headers: me.headers,
        payload: { codigo },
      });
    for (let i = 0; i < 10; i++) expect((await disable(String(100000 + i))).statusCode).toBe(400);
    later(30_000);
    // The right code is refused while the account is locked: before, guessing went on for ever.
    const right = await disable(totpCode(secret, clock));
    expect(right.statusCode).toBe(429);
    later(15 * 60_000);
    expect((await disable(totpCode(secret, clock))).statusCode).toBe(200);
  });
});

describe('painel: sign-in limits are settings', () => {
  let t: TestApp;
  const clock = new Date('2026-03-10T12:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({
      now: () => clock,
      env: { PAINEL_LOGIN_RATE_LIMIT_PER_IP: '5', PAINEL_LOGIN_LOCK_AFTER: '3' },
    });
  });
  afterAll(() => t.close());

  it('locks an e-mail after PAINEL_LOGIN_LOCK_AFTER failures', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload: { email: member.email, password },
        remoteAddress: '198.51.100.30',
      });
    for (let i = 0; i < 3; i++) expect((await login('senha-errada-123')).statusCode).toBe(401);
    expect((await login(member.password)).statusCode).toBe(429);
  });

  it('refuses a sixth sign-in from one address in 15 minutes (PAINEL_LOGIN_RATE_LIMIT_PER_IP), whatever the e-mail', async () => {
    const from = (i: number, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: LOGIN,
        payload: { email: `alguem${i}@passada.com.br`, password: 'senha-errada-123' },
        remoteAddress,
      });
    for (let i = 0; i < 5; i++) expect((await from(i, '203.0.113.40')).statusCode).toBe(401);
    const sixth = await from(5, '203.0.113.40');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('rate_limited');
    expect((await from(6, '203.0.113.41')).statusCode).toBe(401);
  });
});

describe('painel: passwords and two-step sign-in staff can manage', () => {
  let t: TestApp;
  let clock = new Date('2026-03-10T12:00:00Z');
  let admin: TestStaff;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    admin = await createStaffAndLogin(t.app, 'admin');
  });
  afterAll(() => t.close());

  const login = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: LOGIN, payload });
  const me = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/painel/auth/me/', headers });
  const auditActions = async () =>
    AuditPageSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/api/painel/audit/?entity=equipe', headers: admin.headers })
      ).json(),
    ).results;

  it('changes one’s own password with the current one; the other sessions end, this one stays', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    const other = await login({ email: member.email, password: member.password });
    const otherHeaders = { authorization: `Token ${other.json().token}` };
    const change = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/painel/auth/password/', headers: member.headers, payload });

    const wrong = await change({ senha_atual: 'nao-e-esta-123', nova_senha: 'nova-senha-forte-42' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.senha_atual).toBe('Senha atual incorreta.');
    const common = await change({ senha_atual: member.password, nova_senha: 'password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().errors.nova_senha).toBe('Esta senha é muito comum. Escolha outra.');
    const short = await change({ senha_atual: member.password, nova_senha: 'curta' });
    expect(short.statusCode).toBe(400);

    expect(
      (await change({ senha_atual: member.password, nova_senha: 'nova-senha-forte-42' })).statusCode,
    ).toBe(204);
    expect((await me(member.headers)).statusCode).toBe(200);
    expect((await me(otherHeaders)).statusCode).toBe(401);
    expect((await login({ email: member.email, password: member.password })).statusCode).toBe(401);
    expect((await login({ email: member.email, password: 'nova-senha-forte-42' })).statusCode).toBe(200);
    expect(
      (await auditActions()).some((e) => e.action === 'senha_alterada' && e.staff_email === member.email),
    ).toBe(true);
  });

  it('lets an admin set someone else’s password, ending their sessions; not operators, not their own', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    const reset = (who: TestStaff, id: number, password: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/painel/staff/${id}/password/`,
        headers: who.headers,
        payload: { password },
      });
    expect((await reset(member, admin.id, 'tomando-conta-99')).statusCode).toBe(403);
    const own = await reset(admin, admin.id, 'tomando-conta-99');
    expect(own.statusCode).toBe(409);
    expect(own.json().code).toBe('propria_conta');
    expect((await reset(admin, member.id, 'password123')).json().errors.password).toBe(
      'Esta senha é muito comum. Escolha outra.',
    );
    expect((await reset(admin, 999_999, 'senha-nova-do-caixa-1')).statusCode).toBe(404);

    const done = await reset(admin, member.id, 'senha-nova-do-caixa-1');
    expect(done.statusCode).toBe(200);
    expect((await me(member.headers)).statusCode).toBe(401);
    expect((await login({ email: member.email, password: 'senha-nova-do-caixa-1' })).statusCode).toBe(200);
    expect(
      (await auditActions()).find(
        (e) => e.action === 'senha_redefinida' && e.entity_id === String(member.id),
      ),
    ).toMatchObject({ staff_email: admin.email });
  });

  it('gives ten one-time recovery codes with 2FA, each good for one sign-in instead of the app code', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    const setup = TotpSetupSchema.parse(
      (
        await t.app.inject({ method: 'POST', url: '/api/painel/auth/2fa/setup/', headers: member.headers })
      ).json(),
    );
    const enabled = await t.app.inject({
      method: 'POST',
      url: '/api/painel/auth/2fa/enable/',
      headers: member.headers,
      payload: { codigo: totpCode(setup.secret, clock) },
    });
    expect(enabled.statusCode).toBe(200);
    const { codigos_recuperacao: codes, totp_enabled } = TotpEnabledSchema.parse(enabled.json());
    expect(totp_enabled).toBe(true);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Only hashes are kept.
    const stored = await t.app.db
      .select()
      .from(staffRecoveryCodes)
      .where(eq(staffRecoveryCodes.staffId, member.id));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace('-', ''));

    const withCode = (codigo_recuperacao: string) =>
      login({ email: member.email, password: member.password, codigo_recuperacao });
    const first = await withCode(codes[0]!.toUpperCase().replace('-', ' '));
    expect(first.statusCode).toBe(200);
    const again = await withCode(codes[0]!);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('codigo_recuperacao_invalido');
    const session = { authorization: `Token ${first.json().token}` };
    expect(StaffMeSchema.parse((await me(session)).json()).codigos_recuperacao_restantes).toBe(9);

    // New codes replace the old ones; it takes a code from the app.
    const regenerate = (codigo: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/painel/auth/2fa/recovery-codes/',
        headers: session,
        payload: { codigo },
      });
    expect((await regenerate('000000')).statusCode).toBe(400);
    clock = new Date(clock.getTime() + 30_000);
    const fresh = RecoveryCodesSchema.parse((await regenerate(totpCode(setup.secret, clock))).json());
    expect(fresh.codigos_recuperacao).toHaveLength(10);
    expect((await withCode(codes[1]!)).statusCode).toBe(401);
    expect((await withCode(fresh.codigos_recuperacao[0]!)).statusCode).toBe(200);

    const actions = (await auditActions())
      .filter((e) => e.entity_id === String(member.id))
      .map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['2fa_segredo_gerado', '2fa_ativado', 'codigos_recuperacao_gerados', 'entrou']),
    );
    expect(JSON.stringify(await auditActions())).not.toContain(fresh.codigos_recuperacao[0]!);
  });

  it('lets an admin reset someone’s two-step sign-in so they set it up again', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    clock = new Date(clock.getTime() + 30_000);
    await turnOnTotp(t.app, member.headers, clock);
    expect((await login({ email: member.email, password: member.password })).json().code).toBe(
      'codigo_2fa_necessario',
    );
    const reset = (who: TestStaff, id: number) =>
      t.app.inject({ method: 'POST', url: `/api/painel/staff/${id}/2fa/reset/`, headers: who.headers });
    expect((await reset(member, member.id)).statusCode).toBe(403);
    const done = await reset(admin, member.id);
    expect(done.statusCode).toBe(200);
    expect(done.json().totp_enabled).toBe(false);
    expect((await me(member.headers)).statusCode).toBe(401);
    expect((await login({ email: member.email, password: member.password })).statusCode).toBe(200);
    expect((await reset(admin, member.id)).statusCode).toBe(409);
    expect(
      (await auditActions()).find((e) => e.action === '2fa_redefinido' && e.entity_id === String(member.id)),
    ).toMatchObject({
      staff_email: admin.email,
      before: { totp_enabled: true },
      after: { totp_enabled: false },
    });
  });

  it('answers 400 with a message, not 500, to a staff change with nothing in it', async () => {
    const member = await createStaffAndLogin(t.app, 'operador');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/painel/staff/${member.id}/`,
      headers: admin.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'nada_para_alterar',
      detail: 'Nada para alterar: informe o perfil, os eventos ou se a conta está ativa.',
    });
  });
});
