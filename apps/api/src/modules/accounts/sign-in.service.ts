import { type LoginLinkRequest, LoginRequestSchema } from '@passada/core/contracts/accounts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../../plugins/passwords.ts';
import { loginLinkMail } from './account-mail.ts';
import { type DeviceCookie, deviceCookie, readDeviceNonce } from './device-cookie.ts';
import * as repo from './users.repository.ts';
import { newOpaqueToken, type UsersServiceDeps } from './users.shared.ts';

const INVALID_CREDENTIALS = 'Credenciais inválidas';
/**
 * OWASP: lock one account for untrusted browsers after LOGIN_MAX_FAILURES_PER_ACCOUNT failures within
 * 15 minutes; the window lifts it by itself. Browsers with a device cookie are judged apart
 * (docs/decisions/0024-device-cookies-login.md).
 */
export const LOGIN_WINDOW_MINUTES = 15;

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

/** Sign-in with password or e-mailed link, API tokens, trusted devices, sign-out (docs/decisions/0024). */
export function createSignIn(deps: UsersServiceDeps) {
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

  return { issueToken, trustNewDevice, logIn, logInWithLink, sendLoginLink, logOut };
}
