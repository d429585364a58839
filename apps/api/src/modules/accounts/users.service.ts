import { randomBytes } from 'node:crypto';
import {
  type ChangePasswordRequest,
  LoginRequestSchema,
  type PasswordResetConfirm,
  type Profile,
  type SignUpRequest,
  type UpdateProfileRequest,
} from '@passada/core/contracts/accounts';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  verifyAgainstDummy,
  verifyPassword,
} from './passwords.ts';
import * as repo from './users.repository.ts';

export interface UsersServiceDeps {
  db: Db;
  env: Pick<Env, 'AUTH_TOKEN_TTL_HOURS' | 'LOGIN_MAX_FAILURES_PER_IP' | 'publicUrl' | 'STORE_NAME'>;
  now: () => Date;
  mail: MailProvider;
}

const INVALID_CREDENTIALS = 'Credenciais inválidas';
/** OWASP: lock one account after 10 failures within 15 minutes; the window lifts it by itself. */
export const LOGIN_WINDOW_MINUTES = 15;
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 10;
export const PASSWORD_RESET_TTL_MINUTES = 60;

const USERNAME_TAKEN = 'Este nome de usuário já está em uso.';
const EMAIL_TAKEN = 'Este e-mail já está cadastrado.';

export function toProfile(user: { username: string; email: string; fullName: string }): Profile {
  return { username: user.username, email: user.email, full_name: user.fullName };
}

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

  /** `body` is checked here, not by the route schema: any failure must read the same, "Credenciais inválidas". */
  async function logIn(body: unknown, ip: string): Promise<string> {
    const parsed = LoginRequestSchema.safeParse(body);
    if (!parsed.success) throw badRequest(INVALID_CREDENTIALS, 'invalid_credentials');
    const { username: login, password } = parsed.data;
    const now = deps.now();
    const user = await repo.findActiveUserByLogin(deps.db, login);
    // Username and e-mail count as one account, so switching between them gives no extra tries.
    const account = (user?.username ?? login).toLowerCase();
    const since = new Date(now.getTime() - LOGIN_WINDOW_MINUTES * 60_000);
    const [byAccount, byIp] = await Promise.all([
      repo.countFailures(deps.db, { account }, since),
      repo.countFailures(deps.db, { ip }, since),
    ]);
    if (byAccount >= LOGIN_MAX_FAILURES_PER_ACCOUNT || byIp >= deps.env.LOGIN_MAX_FAILURES_PER_IP) {
      throw new HttpError(
        429,
        `Muitas tentativas de login. Aguarde ${LOGIN_WINDOW_MINUTES} minutos e tente novamente.`,
        'too_many_attempts',
      );
    }
    const ok = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
    if (!user || !ok) {
      await repo.insertFailure(deps.db, account, ip, now);
      await repo.pruneFailures(deps.db, new Date(now.getTime() - 24 * 3_600_000));
      throw badRequest(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    await repo.clearAccountFailures(deps.db, account);
    return issueToken(user.id);
  }

  async function logOut(tokenHash: string | null): Promise<void> {
    if (tokenHash) await repo.revokeToken(deps.db, tokenHash, deps.now());
  }

  async function updateProfile(userId: number, input: UpdateProfileRequest): Promise<Profile> {
    if (input.email) {
      const taken = await repo.findTaken(deps.db, { email: input.email }, userId);
      if (taken.email) throw fieldErrors({ email: EMAIL_TAKEN });
    }
    try {
      const user = await repo.updateUser(deps.db, userId, {
        ...(input.full_name === undefined ? {} : { fullName: input.full_name }),
        ...(input.email === undefined ? {} : { email: input.email }),
      });
      return toProfile(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldErrors({ email: EMAIL_TAKEN });
      throw error;
    }
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
      await repo.updateUser(tx, userId, { passwordHash });
      await repo.revokeUserTokens(tx, userId, now, currentTokenHash ?? undefined);
      await repo.expireUserPasswordResets(tx, userId, now);
    });
  }

  /**
   * LGPD art. 18 VI: the account's personal data is erased; the row stays, anonymised, because orders
   * and registrations point to it and must be kept for the records.
   */
  async function deleteAccount(userId: number, password: string): Promise<void> {
    await requirePassword(userId, password, 'password');
    await deps.db.transaction(async (tx) => {
      const user = await repo.findUserById(tx, userId);
      if (!user) return;
      // "#" is not allowed in usernames or e-mails, so the placeholders never clash with a real sign-up.
      await repo.updateUser(tx, userId, {
        username: `#excluido-${userId}`,
        email: `#excluido-${userId}@conta-excluida.invalid`,
        fullName: 'Conta excluída',
        passwordHash: '!',
        deletedAt: deps.now(),
      });
      await repo.erasePersonalData(tx, userId);
      await repo.clearAccountFailures(tx, user.username.toLowerCase());
    });
  }

  /** The answer is the same whether or not the e-mail has an account (no account enumeration). */
  async function requestPasswordReset(
    email: string,
    log: { error(obj: object, msg: string): void },
  ): Promise<void> {
    const user = await repo.findActiveUserByEmail(deps.db, email);
    if (!user) return;
    const token = newOpaqueToken();
    const expiresAt = new Date(deps.now().getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000);
    await repo.insertPasswordReset(deps.db, user.id, hashToken(token), expiresAt);
    const link = `${deps.env.publicUrl}/login/redefinir-senha?token=${encodeURIComponent(token)}`;
    try {
      await deps.mail.send({
        to: user.email,
        subject: `${deps.env.STORE_NAME}: redefinição de senha`,
        text: [
          `Olá, ${user.fullName}!`,
          '',
          `Recebemos um pedido para redefinir a senha da sua conta na ${deps.env.STORE_NAME}.`,
          `Para criar uma nova senha, abra o link abaixo. Ele vale por ${PASSWORD_RESET_TTL_MINUTES} minutos e pode ser usado uma única vez:`,
          '',
          link,
          '',
          'Se você não fez este pedido, ignore este e-mail: sua senha continua a mesma.',
        ].join('\n'),
      });
    } catch (err) {
      // A mail failure must not reveal that the account exists; the person can ask again.
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'password reset mail failed');
    }
  }

  async function confirmPasswordReset(input: PasswordResetConfirm): Promise<void> {
    // Checked before the link is spent, so a refused password does not burn it.
    if (isCommonPassword(input.password)) throw fieldErrors({ password: COMMON_PASSWORD_MESSAGE });
    const passwordHash = await hashPassword(input.password);
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const userId = await repo.consumePasswordReset(tx, hashToken(input.token), now);
      const user = userId === null ? null : await repo.findUserById(tx, userId);
      if (!user || user.deletedAt)
        throw badRequest(INVALID_LINK, 'invalid_reset_token', { token: INVALID_LINK });
      await repo.updateUser(tx, user.id, { passwordHash });
      await repo.revokeUserTokens(tx, user.id, now);
      await repo.expireUserPasswordResets(tx, user.id, now);
      await repo.clearAccountFailures(tx, user.username.toLowerCase());
    });
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
    logOut,
    updateProfile,
    changePassword,
    deleteAccount,
    requestPasswordReset,
    confirmPasswordReset,
    findContact,
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
