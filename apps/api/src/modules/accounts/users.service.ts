import { randomBytes } from 'node:crypto';
import {
  type ChangePasswordRequest,
  type LoginLinkRequest,
  LoginRequestSchema,
  type PasswordResetConfirm,
  type Profile,
  type SignUpRequest,
  type UpdateProfileRequest,
} from '@passada/core/contracts/accounts';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  verifyAgainstDummy,
  verifyPassword,
} from '../../plugins/passwords.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import {
  accountNoticeMail,
  emailConfirmationMail,
  loginLinkMail,
  passwordResetMail,
} from './account-mail.ts';
import { type DeviceCookie, deviceCookie, readDeviceNonce } from './device-cookie.ts';
import type { ErasedAccount } from './personal-data-owners.ts';
import * as repo from './users.repository.ts';

/** For test factories, which add accounts without going through sign-up. */
export { insertUser } from './users.repository.ts';

export interface UsersServiceDeps {
  db: Db;
  env: Pick<
    Env,
    | 'AUTH_TOKEN_TTL_HOURS'
    | 'LOGIN_MAX_FAILURES_PER_IP'
    | 'LOGIN_MAX_FAILURES_PER_ACCOUNT'
    | 'LOGIN_MAX_FAILURES_PER_DEVICE'
    | 'LOGIN_DEVICE_TTL_DAYS'
    | 'LOGIN_LINK_TTL_MINUTES'
    | 'LOGIN_LINK_MAX_PER_HOUR'
    | 'EMAIL_CONFIRMATION_TTL_HOURS'
    | 'EMAIL_CONFIRMATION_MAX_PER_HOUR'
    | 'publicUrl'
    | 'STORE_NAME'
  >;
  now: () => Date;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  /**
   * What the other modules keep of the account goes with it (decision 0061: their waitlist entries,
   * transfers and lottery entries, then the payment drafts), inside the deletion's transaction, with the
   * account's e-mail before it is anonymised when it was confirmed (docs/decisions/0057), null otherwise.
   */
  forgetOwned?: (tx: Tx, account: ErasedAccount) => Promise<void>;
}

const INVALID_CREDENTIALS = 'Credenciais inválidas';
/**
 * OWASP: lock one account for untrusted browsers after LOGIN_MAX_FAILURES_PER_ACCOUNT failures within
 * 15 minutes; the window lifts it by itself. Browsers with a device cookie are judged apart
 * (docs/decisions/0024-device-cookies-login.md).
 */
export const LOGIN_WINDOW_MINUTES = 15;
export const PASSWORD_RESET_TTL_MINUTES = 60;
/** A notice's "this was not me" link must still work when the person reads it days later. */
export const NOTICE_RESET_TTL_HOURS = 72;

/**
 * The answers of a blocked attempt read the same whether its password was right or wrong (no oracle
 * for whoever guesses); only the owner's mailbox learns it was right, through a sign-in link.
 */
const LINK_SENT = 'Se a senha estiver correta, enviamos um link de acesso para o e-mail da conta.';
export const ACCOUNT_LOCKED =
  `Muitas tentativas de login nesta conta. ${LINK_SENT} Você também pode aguardar ${LOGIN_WINDOW_MINUTES} ` +
  'minutos ou redefinir sua senha em "Esqueci minha senha".';
export const IP_THROTTLED = `Muitas tentativas deste endereço. ${LINK_SENT}`;
const INVALID_LOGIN_LINK = 'Link de acesso inválido ou expirado. Entre com sua senha para receber outro.';

/** A signed-in session: the API token, and the device cookie the browser keeps for the next sign-ins. */
export interface SignedIn {
  token: string;
  device: DeviceCookie;
}

const USERNAME_TAKEN = 'Este nome de usuário já está em uso.';
const EMAIL_TAKEN = 'Este e-mail já está cadastrado.';

function toProfile(user: {
  username: string;
  email: string;
  fullName: string;
  emailConfirmedAt: Date | null;
}): Profile {
  return {
    username: user.username,
    email: user.email,
    full_name: user.fullName,
    email_confirmado: user.emailConfirmedAt !== null,
  };
}

const EMAIL_CONFIRMATION_SENT = 'Enviamos um link de confirmação para o seu e-mail.';
const INVALID_CONFIRMATION =
  'Link de confirmação inválido, já usado ou expirado. Entre na sua conta e peça outro em "Meus dados".';

function fieldErrors(errors: Record<string, string>): HttpError {
  const first = Object.values(errors)[0] ?? 'Dados inválidos.';
  return badRequest(first, 'validation_error', errors);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

const INVALID_LINK = 'Link inválido ou expirado. Peça um novo e-mail de recuperação.';

export const PASSWORD_RESET_SENT =
  'Se houver uma conta com este e-mail, enviaremos um link para redefinir a senha.';

/** Sign-up, tokens, profile, password change and reset, account deletion (docs/product.md §6). */
export function createUsersService(deps: UsersServiceDeps) {
  async function signUp(input: SignUpRequest): Promise<Profile> {
    const errors: Record<string, string> = {};
    const taken = await repo.findTaken(deps.db, { username: input.username, email: input.email });
    if (taken.username) errors.username = USERNAME_TAKEN;
    if (taken.email) errors.email = EMAIL_TAKEN;
    if (isCommonPassword(input.password)) errors.password = COMMON_PASSWORD_MESSAGE;
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    const passwordHash = await hashPassword(input.password);
    try {
      const user = await repo.insertUser(deps.db, {
        username: input.username,
        email: input.email,
        fullName: input.full_name,
        passwordHash,
      });
      await askEmailConfirmation(deps.db, user.id, user.email);
      return toProfile(user);
    } catch (error) {
      // Two sign-ups racing for the same name: the unique index decides, the loser gets the field message.
      if (isUniqueViolation(error)) {
        const again = await repo.findTaken(deps.db, { username: input.username, email: input.email });
        throw fieldErrors(
          again.email && !again.username ? { email: EMAIL_TAKEN } : { username: USERNAME_TAKEN },
        );
      }
      throw error;
    }
  }

  async function issueToken(userId: number): Promise<string> {
    const token = newOpaqueToken();
    const expiresAt = new Date(deps.now().getTime() + deps.env.AUTH_TOKEN_TTL_HOURS * 3_600_000);
    await repo.insertToken(deps.db, userId, hashToken(token), expiresAt);
    return token;
  }

  /** A new trusted device for the user: the nonce goes to the browser, its hash to the database. */
  async function trustNewDevice(userId: number): Promise<DeviceCookie> {
    const nonce = newOpaqueToken();
    await repo.insertDevice(deps.db, userId, hashToken(nonce), deps.now());
    return deviceCookie(userId, nonce);
  }

  /** The id of the live device behind this browser's cookie for `userId`, or null (untrusted browser). */
  async function trustedDevice(
    userId: number,
    cookies: Record<string, string | undefined>,
    now: Date,
  ): Promise<{ id: number; nonce: string } | null> {
    const nonce = readDeviceNonce(cookies, userId);
    if (!nonce) return null;
    const usedSince = new Date(now.getTime() - deps.env.LOGIN_DEVICE_TTL_DAYS * 86_400_000);
    const id = await repo.findLiveDevice(deps.db, userId, hashToken(nonce), usedSince);
    return id === null ? null : { id, nonce };
  }

  /**
   * `body` is checked here, not by the route schema: any failure must read the same, "Credenciais inválidas".
   * Every attempt first takes a slot (a failure row) under a lock on the account, counted and inserted
   * together, so 100 parallel guesses get at most LOGIN_MAX_FAILURES_PER_ACCOUNT answers; a right
   * password gives its slot back.
   *
   * OWASP device cookies (docs/decisions/0024-device-cookies-login.md): a browser whose cookie names a
   * live device of this account is judged by that device's failures only (LOGIN_MAX_FAILURES_PER_DEVICE),
   * so strangers behind the same address (carrier-grade NAT) cannot lock it out. Untrusted browsers keep
   * the per-account and per-address limits; when blocked, the password is still checked and the answer is
   * the same either way, but a right one e-mails the owner a one-time sign-in link.
   */
  async function logIn(
    body: unknown,
    ip: string,
    cookies: Record<string, string | undefined> = {},
  ): Promise<SignedIn> {
    const parsed = LoginRequestSchema.safeParse(body);
    if (!parsed.success) throw badRequest(INVALID_CREDENTIALS, 'invalid_credentials');
    const { username: login, password } = parsed.data;
    const now = deps.now();
    const user = await repo.findActiveUserByLogin(deps.db, login);
    // Username and e-mail count as one account, so switching between them gives no extra tries.
    const account = (user?.username ?? login).toLowerCase();
    const device = user ? await trustedDevice(user.id, cookies, now) : null;
    const since = new Date(now.getTime() - LOGIN_WINDOW_MINUTES * 60_000);
    const slot = await repo.takeLoginSlot(deps.db, {
      account,
      ip,
      now,
      since,
      deviceId: device?.id ?? null,
      maxPerDevice: deps.env.LOGIN_MAX_FAILURES_PER_DEVICE,
      maxPerAccount: deps.env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxPerIp: deps.env.LOGIN_MAX_FAILURES_PER_IP,
    });
    const ok = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
    if (slot.kind === 'account' || slot.kind === 'ip') {
      // The link only reaches the account's mailbox; the key keeps repeated clicks to one waiting job.
      if (user && ok) {
        await deps.jobs.send('mail.login-link', { userId: user.id }, { singletonKey: String(user.id) });
      }
      throw new HttpError(429, slot.kind === 'account' ? ACCOUNT_LOCKED : IP_THROTTLED, 'too_many_attempts');
    }
    if (!user || !ok) {
      await repo.pruneFailures(deps.db, new Date(now.getTime() - 24 * 3_600_000));
      throw badRequest(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    if (slot.kind === 'device' && device) {
      // The device's own count starts again (as OWASP's fresh cookie after each sign-in would).
      await repo.clearDeviceFailures(deps.db, device.id);
      await repo.touchDevice(deps.db, device.id, now);
      return { token: await issueToken(user.id), device: deviceCookie(user.id, device.nonce) };
    }
    // Only this attempt's slot comes back: the failures others left on the account or the address keep
    // counting for untrusted browsers until the window lifts them, whoever signs in meanwhile.
    if (slot.kind === 'ok') await repo.deleteFailure(deps.db, slot.failureId);
    return { token: await issueToken(user.id), device: await trustNewDevice(user.id) };
  }

  /**
   * Opening the e-mailed link signs the person in and trusts the browser (OWASP: proving the mailbox is
   * enough to trust a client); the account's lock for untrusted browsers stays.
   */
  async function logInWithLink(input: LoginLinkRequest): Promise<SignedIn> {
    const userId = await repo.consumeLoginLink(deps.db, hashToken(input.token), deps.now());
    const user = userId === null ? null : await repo.findUserById(deps.db, userId);
    if (!user || user.deletedAt) {
      throw badRequest(INVALID_LOGIN_LINK, 'invalid_login_link', { token: INVALID_LOGIN_LINK });
    }
    return { token: await issueToken(user.id), device: await trustNewDevice(user.id) };
  }

  /** The job behind a blocked sign-in with the right password; at most LOGIN_LINK_MAX_PER_HOUR an hour. */
  async function sendLoginLink(userId: number): Promise<void> {
    const user = await repo.findUserById(deps.db, userId);
    if (!user || user.deletedAt) return;
    const token = newOpaqueToken();
    const now = deps.now();
    const created = await repo.insertLoginLinkWithinLimit(deps.db, {
      userId,
      tokenHash: hashToken(token),
      now,
      expiresAt: new Date(now.getTime() + deps.env.LOGIN_LINK_TTL_MINUTES * 60_000),
      maxPerHour: deps.env.LOGIN_LINK_MAX_PER_HOUR,
    });
    if (!created) return;
    await deps.mail.send(
      loginLinkMail({
        env: deps.env,
        to: user.email,
        name: user.fullName,
        link: `${deps.env.publicUrl}/login/acesso?token=${encodeURIComponent(token)}`,
        ttlMinutes: deps.env.LOGIN_LINK_TTL_MINUTES,
      }),
    );
  }

  async function logOut(tokenHash: string | null): Promise<void> {
    if (tokenHash) await repo.revokeToken(deps.db, tokenHash, deps.now());
  }

  /**
   * A new e-mail needs the current password (whoever holds a stolen token cannot take the account
   * over through "forgot password"), and the old address is told, with a link to take it back.
   */
  async function updateProfile(userId: number, input: UpdateProfileRequest): Promise<Profile> {
    const current = await repo.findUserById(deps.db, userId);
    if (!current) throw fieldErrors({ email: 'Conta não encontrada.' });
    const changesEmail = input.email !== undefined && input.email !== current.email;
    if (changesEmail) {
      if (!input.current_password) {
        throw fieldErrors({ current_password: 'Informe sua senha atual para trocar o e-mail.' });
      }
      await requirePassword(userId, input.current_password, 'current_password');
      const taken = await repo.findTaken(deps.db, { email: input.email }, userId);
      if (taken.email) throw fieldErrors({ email: EMAIL_TAKEN });
    }
    // The same e-mail again and no name: nothing to write.
    if (!changesEmail && input.full_name === undefined) return toProfile(current);
    try {
      return await deps.db.transaction(async (tx) => {
        const user = await repo.updateUser(tx, userId, {
          ...(input.full_name === undefined ? {} : { fullName: input.full_name }),
          // A new address is not proven until its own link is opened (docs/decisions/0057).
          ...(changesEmail && input.email ? { email: input.email, emailConfirmedAt: null } : {}),
        });
        if (changesEmail) {
          await notify(tx, userId, 'email_changed', current.email);
          await askEmailConfirmation(tx, userId, user.email);
        }
        return toProfile(user);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldErrors({ email: EMAIL_TAKEN });
      throw error;
    }
  }

  /**
   * A confirmation link for `email` (docs/decisions/0057), within EMAIL_CONFIRMATION_MAX_PER_HOUR per
   * account: the row and its mail job in the caller's transaction. False when the hour's links are spent.
   */
  async function askEmailConfirmation(db: Db | Tx, userId: number, email: string): Promise<boolean> {
    const now = deps.now();
    const id = await repo.insertEmailConfirmationWithinLimit(db, {
      userId,
      email,
      placeholderHash: hashToken(newOpaqueToken()),
      now,
      expiresAt: new Date(now.getTime() + deps.env.EMAIL_CONFIRMATION_TTL_HOURS * 3_600_000),
      maxPerHour: deps.env.EMAIL_CONFIRMATION_MAX_PER_HOUR,
    });
    if (id === null) return false;
    await deps.jobs.send(
      'mail.email-confirmation',
      { confirmationId: id },
      db === deps.db ? {} : { tx: db as Tx },
    );
    return true;
  }

  /** "Reenviar link": 429 once the account's links of the hour are spent, and nothing for a confirmed e-mail. */
  async function resendEmailConfirmation(userId: number): Promise<string> {
    const user = await repo.findUserById(deps.db, userId);
    if (!user || user.deletedAt) throw fieldErrors({ email: 'Conta não encontrada.' });
    if (user.emailConfirmedAt) return 'Seu e-mail já está confirmado.';
    if (!(await askEmailConfirmation(deps.db, userId, user.email)))
      throw new HttpError(
        429,
        `Já enviamos ${deps.env.EMAIL_CONFIRMATION_MAX_PER_HOUR} links de confirmação na última hora. ` +
          'Confira a caixa de entrada e o spam, ou tente de novo mais tarde.',
        'rate_limited',
      );
    return EMAIL_CONFIRMATION_SENT;
  }

  /**
   * The mail job: a fresh token whose hash replaces the row's (a retry mails a new one and the earlier
   * stops working), sent to the address the link was asked for, never to another.
   */
  async function sendEmailConfirmation(confirmationId: number): Promise<void> {
    const row = await repo.findEmailConfirmation(deps.db, confirmationId);
    if (!row || row.usedAt) return;
    const user = await repo.findUserById(deps.db, row.userId);
    if (!user || user.deletedAt || user.email !== row.email) return;
    const token = newOpaqueToken();
    const expiresAt = new Date(deps.now().getTime() + deps.env.EMAIL_CONFIRMATION_TTL_HOURS * 3_600_000);
    if (!(await repo.setEmailConfirmationToken(deps.db, row.id, hashToken(token), expiresAt))) return;
    await deps.mail.send(
      emailConfirmationMail({
        env: deps.env,
        to: row.email,
        name: user.fullName,
        link: `${deps.env.publicUrl}/login/confirmar-email?token=${encodeURIComponent(token)}`,
        ttlHours: deps.env.EMAIL_CONFIRMATION_TTL_HOURS,
      }),
    );
  }

  /** Opening the link: single use, before it expires, and only for the address it was sent to. */
  async function confirmEmail(token: string): Promise<void> {
    if (!(await repo.consumeEmailConfirmation(deps.db, hashToken(token), deps.now())))
      throw badRequest(INVALID_CONFIRMATION, 'invalid_confirmation_token', { token: INVALID_CONFIRMATION });
  }

  /** Records the notice and enqueues its e-mail in the same transaction: both happen or neither. */
  async function notify(tx: Tx, userId: number, kind: repo.NoticeKind, email: string): Promise<void> {
    const noticeId = await repo.insertNotice(tx, { userId, kind, email });
    await deps.jobs.send('mail.account-notice', { noticeId }, { tx });
  }

  async function requirePassword(userId: number, password: string, field: string): Promise<void> {
    const user = await repo.findUserById(deps.db, userId);
    if (!user || !(await verifyPassword(user.passwordHash, password))) {
      throw fieldErrors({
        [field]: field === 'current_password' ? 'Senha atual incorreta.' : 'Senha incorreta.',
      });
    }
  }

  /** Signs out every other device: whoever knew the old password loses access. */
  async function changePassword(
    userId: number,
    currentTokenHash: string | null,
    input: ChangePasswordRequest,
  ): Promise<void> {
    await requirePassword(userId, input.current_password, 'current_password');
    if (isCommonPassword(input.new_password)) throw fieldErrors({ new_password: COMMON_PASSWORD_MESSAGE });
    const passwordHash = await hashPassword(input.new_password);
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const user = await repo.updateUser(tx, userId, { passwordHash });
      await repo.revokeUserTokens(tx, userId, now, currentTokenHash ?? undefined);
      await repo.expireUserPasswordResets(tx, userId, now);
      await notify(tx, userId, 'password_changed', user.email);
    });
  }

  /**
   * LGPD art. 18 VI: the account's personal data is erased; the row stays, anonymised, because orders
   * and registrations point to it and must be kept for the records.
   */
  async function deleteAccount(userId: number, password: string): Promise<void> {
    await requirePassword(userId, password, 'password');
    await deps.db.transaction((tx) => eraseAccount(tx, userId));
  }

  /**
   * The erasure itself, in the caller's transaction: the account's own deletion above, and staff acting
   * on the person's request (customers-admin.ts). False when there is no such account or it is gone.
   */
  async function eraseAccount(tx: Tx, userId: number): Promise<boolean> {
    const user = await repo.findUserById(tx, userId);
    if (!user || user.deletedAt) return false;
    // "#" is not allowed in usernames or e-mails, so the placeholders never clash with a real sign-up.
    await repo.updateUser(tx, userId, {
      username: `#excluido-${userId}`,
      email: `#excluido-${userId}@conta-excluida.invalid`,
      fullName: 'Conta excluída',
      passwordHash: '!',
      deletedAt: deps.now(),
    });
    await repo.erasePersonalData(tx, userId);
    // What was given with the e-mail and no account is the account's only once the address was
    // confirmed (docs/decisions/0057); otherwise only what the account itself made goes.
    await deps.forgetOwned?.(tx, { userId, confirmedEmail: user.emailConfirmedAt ? user.email : null });
    await repo.clearAccountFailures(tx, user.username.toLowerCase());
    return true;
  }

  /**
   * The answer is the same, and as fast, whether or not the e-mail has an account (no account
   * enumeration): the request only enqueues a job; the link is made and mailed by `sendPasswordReset`.
   */
  async function requestPasswordReset(email: string): Promise<void> {
    const user = await repo.findActiveUserByEmail(deps.db, email);
    if (user) await deps.jobs.send('mail.password-reset', { userId: user.id });
  }

  /** A new single-use link, stored as its hash only. */
  async function newResetLink(userId: number, ttlMinutes: number, db: Db | Tx = deps.db): Promise<string> {
    const token = newOpaqueToken();
    const expiresAt = new Date(deps.now().getTime() + ttlMinutes * 60_000);
    await repo.insertPasswordReset(db, userId, hashToken(token), expiresAt);
    return `${deps.env.publicUrl}/login/redefinir-senha?token=${encodeURIComponent(token)}`;
  }

  /** The job behind `requestPasswordReset`; a deleted account gets nothing. */
  async function sendPasswordReset(userId: number): Promise<void> {
    const user = await repo.findUserById(deps.db, userId);
    if (!user || user.deletedAt) return;
    const link = await newResetLink(userId, PASSWORD_RESET_TTL_MINUTES);
    await deps.mail.send(
      passwordResetMail({
        env: deps.env,
        to: user.email,
        name: user.fullName,
        link,
        ttlMinutes: PASSWORD_RESET_TTL_MINUTES,
      }),
    );
  }

  /**
   * The job behind a security notice. Sent at most once: a retry after a delivery failure sends it
   * again, but a notice already marked sent is skipped.
   */
  async function sendAccountNotice(noticeId: number): Promise<void> {
    const notice = await repo.findNotice(deps.db, noticeId);
    if (!notice || notice.sentAt) return;
    const user = await repo.findUserById(deps.db, notice.userId);
    if (!user || user.deletedAt) return;
    const link = await newResetLink(user.id, NOTICE_RESET_TTL_HOURS * 60);
    await deps.mail.send(
      accountNoticeMail({
        env: deps.env,
        kind: notice.kind as repo.NoticeKind,
        to: notice.email,
        name: user.fullName,
        newEmail: user.email,
        at: notice.createdAt,
        link,
        ttlHours: NOTICE_RESET_TTL_HOURS,
      }),
    );
    await repo.markNoticeSent(deps.db, noticeId, deps.now());
  }

  /**
   * A reset proves the mailbox, so the browser that made it is trusted from then on (OWASP device
   * cookies): it answers the device cookie to set.
   */
  async function confirmPasswordReset(input: PasswordResetConfirm): Promise<DeviceCookie> {
    // Checked before the link is spent, so a refused password does not burn it.
    if (isCommonPassword(input.password)) throw fieldErrors({ password: COMMON_PASSWORD_MESSAGE });
    const passwordHash = await hashPassword(input.password);
    const now = deps.now();
    const userId = await deps.db.transaction(async (tx) => {
      const linkUserId = await repo.consumePasswordReset(tx, hashToken(input.token), now);
      const user = linkUserId === null ? null : await repo.findUserById(tx, linkUserId);
      if (!user || user.deletedAt)
        throw badRequest(INVALID_LINK, 'invalid_reset_token', { token: INVALID_LINK });
      await repo.updateUser(tx, user.id, { passwordHash });
      await repo.revokeUserTokens(tx, user.id, now);
      await repo.expireUserPasswordResets(tx, user.id, now);
      return user.id;
    });
    return trustNewDevice(userId);
  }

  /** The signed-in person's profile, with whether the e-mail is confirmed. */
  async function profile(userId: number): Promise<Profile> {
    const user = await repo.findUserById(deps.db, userId);
    if (!user || user.deletedAt) throw new HttpError(401, 'Faça login para continuar.', 'not_authenticated');
    return toProfile(user);
  }

  /** E-mail and name of an account, for modules that write to its owner (registrations). */
  async function findContact(
    userId: number,
    db: Db | Tx = deps.db,
  ): Promise<{ email: string; fullName: string } | null> {
    const user = await repo.findUserById(db, userId);
    return user ? { email: user.email, fullName: user.fullName } : null;
  }

  return {
    signUp,
    issueToken,
    logIn,
    logInWithLink,
    sendLoginLink,
    logOut,
    updateProfile,
    changePassword,
    deleteAccount,
    eraseAccount,
    requestPasswordReset,
    sendPasswordReset,
    sendAccountNotice,
    confirmPasswordReset,
    findContact,
    profile,
    resendEmailConfirmation,
    sendEmailConfirmation,
    confirmEmail,
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
