import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLinks } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import {
  confirmPasswordReset,
  createUserAndToken,
  readOutbox,
  requestPasswordReset,
  resetTokenIn,
  type TestUser,
  waitForMail,
} from '../../test/factories/accounts.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { untilJobsDone } from '../../test/wait-until.ts';

/**
 * Carrier-grade NAT: a whole carrier's customers share one address, so a stranger's failures from it
 * must not lock out a browser that signed in before, nor give the stranger any more guesses
 * (docs/decisions/0024-device-cookies-login.md).
 */
let t: TestApp;
beforeAll(async () => {
  // Defaults for every login limit (50 per address, 10 per account, 10 per device); two links an hour.
  t = await createTestApp({ env: { LOGIN_LINK_MAX_PER_HOUR: '2' } });
});
afterAll(() => t.close());

type Jar = Record<string, string>;
const IP_THROTTLED =
  'Muitas tentativas deste endereço. Se a senha estiver correta, enviamos um link de acesso para o e-mail da conta.';

let nextNet = 0;
/** A fresh shared address for each test, as a carrier's NAT would hand out. */
const sharedAddress = () => `177.37.${++nextNet}.1`;

function login(username: string, password: string, ip: string, cookies: Jar = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/token-auth/',
    payload: { username, password },
    remoteAddress: ip,
    cookies,
  });
}

/** The cookies a response sets, as the browser would keep them. */
function jarOf(res: LightMyRequestResponse, jar: Jar = {}): Jar {
  for (const c of res.cookies as { name: string; value: string }[]) jar[c.name] = c.value;
  return jar;
}

async function profileStatus(token: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/users/profile/',
    headers: { authorization: `Token ${token}` },
  });
  return res.statusCode;
}

/** The owner signs in once from their own browser (behind the shared address) and keeps its cookies. */
async function ownerBrowser(owner: TestUser, ip: string): Promise<Jar> {
  const res = await login(owner.username, owner.password, ip);
  expect(res.statusCode).toBe(200);
  return jarOf(res);
}

/** 50 failures from `ip`: 10 on the owner's account (locking it for untrusted browsers), 40 on others. */
async function strangerFails(ip: string, owner: TestUser) {
  for (let i = 0; i < 10; i++) {
    expect((await login(i % 2 ? owner.email : owner.username, `chute ${i}`, ip)).statusCode).toBe(400);
  }
  for (let i = 0; i < 40; i++) {
    expect((await login(`vizinho${nextNet}x${i}`, 'senha123456', ip)).statusCode).toBe(400);
  }
  const blocked = await login('mais-um-vizinho', 'senha123456', ip);
  expect(blocked.statusCode).toBe(429);
  expect(blocked.json().detail).toBe(IP_THROTTLED);
}

const linkMailsTo = (email: string) =>
  readOutbox(t.dataDir).filter(
    (m) => m.toLowerCase().includes(`to: ${email.toLowerCase()}`) && m.includes('/login/acesso?token='),
  );

function linkTokenIn(mail: string): string {
  const m = /\/login\/acesso\?token=([A-Za-z0-9_%-]+)/.exec(mail);
  if (!m?.[1]) throw new Error('no sign-in link in the e-mail');
  return decodeURIComponent(m[1]);
}

const useLink = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/token-auth/link/', payload: { token } });

describe('sign-in behind an address a stranger has locked', () => {
  it('sets an HttpOnly, SameSite=Lax device cookie limited to the sign-in endpoints', async () => {
    const owner = await createUserAndToken(t.app);
    const res = await login(owner.username, owner.password, sharedAddress());
    expect(res.statusCode).toBe(200);
    const [cookie] = res.cookies as Record<string, unknown>[];
    expect(cookie).toMatchObject({
      name: `passada_device_${owner.id}`,
      path: '/api/token-auth/',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge: 180 * 86_400,
    });
    expect(String(cookie?.value)).toMatch(new RegExp(`^${owner.id}\\.[A-Za-z0-9_-]{43}$`));
    // Served over http here (PUBLIC_URL unset): Secure would make the browser drop it.
    expect(cookie?.secure).toBeUndefined();
  });

  it('marks the device cookie Secure when the shop is served over https', async () => {
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://loja.example' } });
    try {
      const owner = await createUserAndToken(https.app);
      const res = await https.app.inject({
        method: 'POST',
        url: '/api/token-auth/',
        payload: { username: owner.username, password: owner.password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies[0]).toMatchObject({
        name: `passada_device_${owner.id}`,
        secure: true,
        httpOnly: true,
      });
    } finally {
      await https.close();
    }
  });

  it('(a) the owner’s browser with its device cookie still signs in with the right password', async () => {
    const ip = sharedAddress();
    const owner = await createUserAndToken(t.app);
    const jar = await ownerBrowser(owner, ip);
    await strangerFails(ip, owner);

    // Without the cookie the same right password is blocked (the lock is real)...
    expect((await login(owner.username, owner.password, ip)).statusCode).toBe(429);
    // ...with it, a typo reads as a typo and the right password gets in, by username or e-mail.
    const typo = await login(owner.username, 'quase a senha', ip, jar);
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toEqual({ detail: 'Credenciais inválidas', code: 'invalid_credentials' });
    const res = await login(owner.email, owner.password, ip, jar);
    expect(res.statusCode).toBe(200);
    expect(await profileStatus(res.json().token)).toBe(200);
    // The browser keeps the same device cookie, renewed.
    expect(jarOf(res)[`passada_device_${owner.id}`]).toBe(jar[`passada_device_${owner.id}`]);
  });

  it('(b) an untrusted browser gets the same answer right or wrong; only the right one mails a link, good once', async () => {
    const ip = sharedAddress();
    const owner = await createUserAndToken(t.app);
    await strangerFails(ip, owner);

    const wrong = await login(owner.email, 'senha errada', ip);
    // Once the sign-in e-mails' queue is empty, a wrong password would have mailed by now.
    await untilJobsDone(t.app.db, 'mail.login-link');
    expect(linkMailsTo(owner.email)).toEqual([]);

    const right = await login(owner.email, owner.password, ip);
    expect(right.statusCode).toBe(429);
    expect(right.statusCode).toBe(wrong.statusCode);
    expect(right.json()).toEqual(wrong.json());
    expect(right.cookies).toEqual([]);
    expect(right.json().detail).toContain('Se a senha estiver correta, enviamos um link de acesso');

    const mail = await waitForMail(t.dataDir, owner.email, '/login/acesso?token=');
    expect(mail).toContain('vale por 15 minutos');
    expect(linkMailsTo(owner.email)).toHaveLength(1);
    const token = linkTokenIn(mail);

    const first = await useLink(token);
    expect(first.statusCode).toBe(200);
    expect(await profileStatus(first.json().token)).toBe(200);
    const jar = jarOf(first);
    expect(Object.keys(jar)).toEqual([`passada_device_${owner.id}`]);

    const again = await useLink(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('invalid_login_link');
    expect(again.cookies).toEqual([]);

    // The browser the link trusted now signs in with the password despite the address's lock.
    expect((await login(owner.username, owner.password, ip, jar)).statusCode).toBe(200);
  });

  it('(c) the stranger is still refused, on the account and on the address, after the owner got in', async () => {
    const ip = sharedAddress();
    const owner = await createUserAndToken(t.app);
    const jar = await ownerBrowser(owner, ip);
    await strangerFails(ip, owner);
    expect((await login(owner.username, owner.password, ip, jar)).statusCode).toBe(200);

    // The owner's sign-in gave the stranger nothing back: no wrong password is judged, on any account.
    const onAccount = await login(owner.username, 'mais um chute', ip);
    expect(onAccount.statusCode).toBe(429);
    const onOther = await login('alguem-novo', 'mais um chute', ip);
    expect(onOther.statusCode).toBe(429);
    expect(onOther.json().detail).toBe(IP_THROTTLED);
    // From another address the account stays locked for untrusted browsers too.
    const elsewhere = await login(owner.username, 'mais um chute', sharedAddress());
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().detail).toContain('Muitas tentativas de login nesta conta');
  });

  it('(d) a device cookie of account A gives nothing on account B; forged or tampered cookies are untrusted', async () => {
    const ip = sharedAddress();
    const a = await createUserAndToken(t.app);
    const b = await createUserAndToken(t.app);
    const jarA = await ownerBrowser(a, ip);
    await ownerBrowser(b, sharedAddress());
    await strangerFails(ip, a);
    const valueA = jarA[`passada_device_${a.id}`] ?? '';
    const nonceA = valueA.split('.')[1] ?? '';

    const tries: Jar[] = [
      jarA,
      { [`passada_device_${b.id}`]: valueA },
      { [`passada_device_${b.id}`]: `${b.id}.${nonceA}` },
    ];
    for (const jar of tries) expect((await login(b.username, b.password, ip, jar)).statusCode).toBe(429);

    const last = nonceA.at(-1) === 'A' ? 'B' : 'A';
    const tampered = { [`passada_device_${a.id}`]: `${a.id}.${nonceA.slice(0, -1)}${last}` };
    const forged = { [`passada_device_${a.id}`]: `${a.id}.${randomBytes(32).toString('base64url')}` };
    const garbage = { [`passada_device_${a.id}`]: 'x'.repeat(5000) };
    for (const jar of [tampered, forged, garbage]) {
      expect((await login(a.username, a.password, ip, jar)).statusCode).toBe(429);
    }
    // The genuine cookie still works.
    expect((await login(a.username, a.password, ip, jarA)).statusCode).toBe(200);
  });

  it('a device cookie is no longer trusted after 10 failures of its own', async () => {
    const ip = sharedAddress();
    const owner = await createUserAndToken(t.app);
    const jar = await ownerBrowser(owner, ip);
    await strangerFails(ip, owner);
    for (let i = 0; i < 10; i++) {
      expect((await login(owner.username, `outro chute ${i}`, ip, jar)).statusCode).toBe(400);
    }
    // Judged as an untrusted browser again: the account and the address are both locked for those.
    const res = await login(owner.username, owner.password, ip, jar);
    expect(res.statusCode).toBe(429);
    expect(res.json().detail).toContain('Muitas tentativas de login nesta conta');
  });

  it('mails at most LOGIN_LINK_MAX_PER_HOUR links an hour to one account', async () => {
    const ip = sharedAddress();
    const owner = await createUserAndToken(t.app);
    await strangerFails(ip, owner);
    for (let n = 1; n <= 2; n++) {
      expect((await login(owner.username, owner.password, ip)).statusCode).toBe(429);
      await untilJobsDone(t.app.db, 'mail.login-link');
      expect(linkMailsTo(owner.email)).toHaveLength(n);
    }
    expect((await login(owner.username, owner.password, ip)).statusCode).toBe(429);
    await untilJobsDone(t.app.db, 'mail.login-link');
    expect(linkMailsTo(owner.email)).toHaveLength(2);
  });

  it('refuses an expired or unknown sign-in link', async () => {
    const owner = await createUserAndToken(t.app);
    const token = randomBytes(32).toString('base64url');
    await t.app.db.insert(loginLinks).values({
      userId: owner.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() - 1000),
    });
    for (const res of [await useLink(token), await useLink('nao-existe')]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(
        'Link de acesso inválido ou expirado. Entre com sua senha para receber outro.',
      );
    }
    expect((await useLink('')).statusCode).toBe(400);
  });

  it('a password reset trusts the browser that made it', async () => {
    const ip = sharedAddress();
    const owner = await createUserAndToken(t.app);
    await strangerFails(ip, owner);
    await requestPasswordReset(t.app, owner.email);
    const token = resetTokenIn(await waitForMail(t.dataDir, owner.email, 'redefinir a senha'));
    const reset = await confirmPasswordReset(t.app, token, 'nova senha de corrida');
    expect(reset.statusCode).toBe(200);
    const jar = jarOf(reset);
    expect(Object.keys(jar)).toEqual([`passada_device_${owner.id}`]);
    // The reset gave the stranger nothing back: untrusted browsers stay locked out there.
    expect((await login(owner.username, 'nova senha de corrida', ip)).statusCode).toBe(429);
    expect((await login(owner.username, 'nova senha de corrida', ip, jar)).statusCode).toBe(200);
    expect((await login('outro-vizinho', 'nova senha de corrida', ip)).statusCode).toBe(429);
  });
});
