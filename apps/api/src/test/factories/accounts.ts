import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInput } from '@passada/core/contracts/accounts';
import type { FastifyInstance } from 'fastify';
import { insertUser } from '../../modules/accounts/users.service.ts';
import { hashPassword } from '../../plugins/passwords.ts';

let seq = 0;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  full_name: string;
  password: string;
  token: string;
  /** `{authorization: 'Token …'}` for app.inject. */
  headers: { authorization: string };
}

/**
 * A user with a live token, written straight through the accounts service (not HTTP), so other
 * modules' tests are not slowed by the sign-up rate limit.
 */
export async function createUserAndToken(
  app: FastifyInstance,
  overrides: Partial<Pick<TestUser, 'username' | 'email' | 'full_name' | 'password'>> = {},
): Promise<TestUser> {
  seq += 1;
  const username = overrides.username ?? `corredor${seq}_${process.pid}`;
  const email = (overrides.email ?? `${username}@example.com`).toLowerCase();
  const fullName = overrides.full_name ?? `Corredor Teste ${seq}`;
  const password = overrides.password ?? `passada-segura-${seq}`;
  const user = await insertUser(app.db, {
    username,
    email,
    fullName,
    passwordHash: await hashPassword(password),
  });
  const token = await app.accounts.users.issueToken(user.id);
  return {
    id: user.id,
    username,
    email,
    full_name: fullName,
    password,
    token,
    headers: { authorization: `Token ${token}` },
  };
}

export function makeAddress(overrides: Partial<AddressInput> = {}): AddressInput {
  return {
    full_name: 'Maria Silva',
    zip_code: '60165-121',
    state: 'CE',
    city: 'Fortaleza',
    neighborhood: 'Meireles',
    street: 'Av. Beira Mar',
    number: '100',
    phone: '(85) 99999-9999',
    is_primary: false,
    ...overrides,
  };
}

/** The decoded text of every `.eml` in DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b))
    .map((f) => decodeEml(readFileSync(f, 'utf8')));
}

function decodeEml(raw: string): string {
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 2);
  // Each part decoded on its own.
  // Text with HTML, or HTML with inline images (multipart/related; type="text/html"; boundary=…).
  const boundary = /content-type:\s*multipart\/[^;]+;(?:\s*\w+="[^"]*";)*\s*boundary="?([^"\n]+)"?/i.exec(
    head,
  )?.[1];
  if (boundary) return `${head}\n\n${body.split(`--${boundary}`).map(decodeEml).join(`--${boundary}`)}`;
  if (/content-transfer-encoding:\s*base64/i.test(head)) {
    return `${head}\n\n${Buffer.from(body, 'base64').toString('utf8')}`;
  }
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return `${head}\n\n${Buffer.from(bytes, 'latin1').toString('utf8')}`;
  }
  return raw;
}

/** Waits for the background job to deliver an e-mail to `to` that contains `needle`; answers its text. */
export function waitForMail(dataDir: string, to: string, needle = '', timeoutMs = 30_000): Promise<string> {
  return waitForOutbox(
    dataDir,
    (mails) =>
      mails.filter((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`) && m.includes(needle)).at(-1),
    `to ${to} containing "${needle}"`,
    timeoutMs,
  );
}

/** Waits for the first e-mail, to anyone, that contains `needle`; answers its text. */
export function waitForMailContaining(dataDir: string, needle: string, timeoutMs = 30_000): Promise<string> {
  return waitForOutbox(
    dataDir,
    (mails) => mails.find((m) => m.includes(needle)),
    `containing "${needle}"`,
    timeoutMs,
  );
}

async function waitForOutbox(
  dataDir: string,
  pick: (mails: string[]) => string | undefined,
  what: string,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = pick(readOutbox(dataDir));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no e-mail ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The password-reset token in an e-mail's link. */
export function resetTokenIn(mail: string): string {
  const m = /\/login\/redefinir-senha\?token=([A-Za-z0-9_%-]+)/.exec(mail);
  if (!m?.[1]) throw new Error('no reset link in the e-mail');
  return decodeURIComponent(m[1]);
}

/** Asks for a password reset link, as the "Esqueci minha senha" page does. */
export function requestPasswordReset(app: FastifyInstance, email: string) {
  return app.inject({ method: 'POST', url: '/api/users/password-reset/', payload: { email } });
}

/** Sets a new password with a reset token, typed twice (the second time as given). */
export function confirmPasswordReset(
  app: FastifyInstance,
  token: string,
  password: string,
  passwordConfirm = password,
) {
  return app.inject({
    method: 'POST',
    url: '/api/users/password-reset/confirm/',
    payload: { token, password, password_confirm: passwordConfirm },
  });
}

/** The token of an e-mail confirmation link (`/login/confirmar-email?token=…`) in a mail. */
export function confirmationTokenIn(mail: string): string {
  const m = /\/login\/confirmar-email\?token=([A-Za-z0-9_%-]+)/.exec(mail);
  if (!m?.[1]) throw new Error('no e-mail confirmation link in the e-mail');
  return decodeURIComponent(m[1]);
}

/**
 * Proves the user's e-mail as its owner would (docs/decisions/0057): asks for a link, reads it in the
 * outbox and opens it.
 */
export async function confirmEmailByLink(
  app: FastifyInstance,
  dataDir: string,
  user: { email: string; headers: { authorization: string } },
): Promise<void> {
  const asked = await app.inject({
    method: 'POST',
    url: '/api/users/profile/confirmar-email/',
    headers: user.headers,
  });
  if (asked.statusCode !== 202) throw new Error(`confirmation link refused: ${asked.body}`);
  const token = confirmationTokenIn(await waitForMail(dataDir, user.email, 'confirmar-email'));
  const opened = await app.inject({ method: 'POST', url: '/api/users/confirmar-email/', payload: { token } });
  if (opened.statusCode !== 200) throw new Error(`confirmation refused: ${opened.body}`);
}
