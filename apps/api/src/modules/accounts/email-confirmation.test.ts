import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { confirmationTokenIn, readOutbox, waitForMail } from '../../test/factories/accounts.ts';
import { useClockedTestApp } from '../../test/test-app.ts';

// 10:00 in Fortaleza on 24 November 2026.
const START = new Date('2026-11-24T13:00:00Z');
const HOUR = 3_600_000;

/**
 * The link that proves an account's e-mail (docs/decisions/0057): sent at sign-up and on a new address,
 * single use, expiring after EMAIL_CONFIRMATION_TTL_HOURS, valid only for the address it went to, and
 * sent again at most EMAIL_CONFIRMATION_MAX_PER_HOUR times an hour.
 */
describe('e-mail confirmation', () => {
  const t = useClockedTestApp(START, {
    env: {
      EMAIL_CONFIRMATION_TTL_HOURS: '48',
      EMAIL_CONFIRMATION_MAX_PER_HOUR: '3',
      SIGNUP_RATE_LIMIT_MAX: '50',
    },
  });
  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const profile = async (headers: Record<string, string>) =>
    (await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers })).json();

  async function signUp() {
    const username = `conf${randomUUID().slice(0, 8)}`;
    const email = `${username}@example.com`;
    const password = `senha-longa-${randomUUID()}`;
    const made = await post('/api/users/', { username, email, full_name: 'Maria Prova', password });
    expect(made.statusCode, made.body).toBe(201);
    const login = await post('/api/token-auth/', { username, password });
    expect(login.statusCode).toBe(200);
    return { email, password, headers: { authorization: `Token ${login.json().token}` } };
  }
  const linkTo = async (email: string) =>
    confirmationTokenIn(await waitForMail(t.dataDir, email, 'confirmar-email'));
  const mailsTo = (email: string) =>
    readOutbox(t.dataDir).filter(
      (m) => m.toLowerCase().includes(`to: ${email}`) && m.includes('confirmar-email'),
    );

  it('confirms the address with the link sent at sign-up, once', async () => {
    const maria = await signUp();
    expect(await profile(maria.headers)).toMatchObject({ email: maria.email, email_confirmado: false });
    const token = await linkTo(maria.email);
    const opened = await post('/api/users/confirmar-email/', { token });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().detail).toBe('E-mail confirmado.');
    expect(await profile(maria.headers)).toMatchObject({ email_confirmado: true });
    // Single use.
    const again = await post('/api/users/confirmar-email/', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_confirmation_token' });
    // A confirmed address is not sent another link.
    expect((await post('/api/users/profile/confirmar-email/', undefined, maria.headers)).json().detail).toBe(
      'Seu e-mail já está confirmado.',
    );
    // Made-up or altered tokens confirm nothing.
    for (const forged of ['x', `${token}x`, token.slice(0, -1), randomUUID()]) {
      expect((await post('/api/users/confirmar-email/', { token: forged })).statusCode).toBe(400);
    }
  });

  it('refuses a link past its hours, and one sent to an address the account no longer has', async () => {
    const ana = await signUp();
    const token = await linkTo(ana.email);
    t.clock = new Date(START.getTime() + 48 * HOUR + 1000);
    const late = await post('/api/users/confirmar-email/', { token });
    expect(late.statusCode).toBe(400);
    expect(late.json().detail).toMatch(/inválido, já usado ou expirado/);
    expect(await profile(ana.headers)).toMatchObject({ email_confirmado: false });

    // A fresh link, then the e-mail changes before it is opened: the link proves the old address only.
    t.clock = new Date(START.getTime() + 50 * HOUR);
    expect((await post('/api/users/profile/confirmar-email/', undefined, ana.headers)).statusCode).toBe(202);
    await waitForMail(t.dataDir, ana.email, 'confirmar-email');
    const fresh = confirmationTokenIn(mailsTo(ana.email).at(-1)!);
    const newEmail = `nova-${randomUUID().slice(0, 8)}@example.com`;
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/profile/',
      headers: ana.headers,
      payload: { email: newEmail, current_password: ana.password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().email_confirmado).toBe(false);
    expect((await post('/api/users/confirmar-email/', { token: fresh })).statusCode).toBe(400);
    expect(await profile(ana.headers)).toMatchObject({ email: newEmail, email_confirmado: false });
    // The new address got its own link, which works.
    const own = await linkTo(newEmail);
    expect((await post('/api/users/confirmar-email/', { token: own })).statusCode).toBe(200);
    expect(await profile(ana.headers)).toMatchObject({ email: newEmail, email_confirmado: true });
  });

  it('sends at most 3 links an hour to an account, sign-up included, and more after the hour', async () => {
    const bia = await signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await post('/api/users/profile/confirmar-email/', undefined, bia.headers)).statusCode);
    // Sign-up's link and two more are accepted; the rest are refused and send nothing.
    expect(statuses).toEqual([202, 202, 429, 429, 429, 429]);
    const refused = await post('/api/users/profile/confirmar-email/', undefined, bia.headers);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    await expect.poll(() => mailsTo(bia.email).length, { timeout: 45_000 }).toBe(3);
    t.clock = new Date(START.getTime() + HOUR + 1000);
    expect((await post('/api/users/profile/confirmar-email/', undefined, bia.headers)).statusCode).toBe(202);
    // Without a session, no link is asked for.
    expect((await post('/api/users/profile/confirmar-email/')).statusCode).toBe(401);
  });
});
