import type { ChangePasswordRequest, PasswordResetConfirm } from '@passada/core/contracts/accounts';
import type { Db, Tx } from '../../db/client.ts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest } from '../../plugins/errors.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  isCommonPassword,
  verifyPassword,
} from '../../plugins/passwords.ts';
import { accountNoticeMail, passwordResetMail } from './account-mail.ts';
import type { DeviceCookie } from './device-cookie.ts';
import * as repo from './users.repository.ts';
import { fieldErrors, newOpaqueToken, type UsersServiceDeps } from './users.shared.ts';

export const PASSWORD_RESET_TTL_MINUTES = 60;
/** A notice's "this was not me" link must still work when the person reads it days later. */
export const NOTICE_RESET_TTL_HOURS = 72;

const INVALID_LINK = 'Link inválido ou expirado. Peça um novo e-mail de recuperação.';

export const PASSWORD_RESET_SENT =
  'Se houver uma conta com este e-mail, enviaremos um link para redefinir a senha.';

/** Password change and reset, and the security notices that tell the owner (with a way back). */
export function createPasswords(
  deps: UsersServiceDeps,
  trustNewDevice: (userId: number) => Promise<DeviceCookie>,
) {
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

  return {
    notify,
    requirePassword,
    changePassword,
    requestPasswordReset,
    sendPasswordReset,
    sendAccountNotice,
    confirmPasswordReset,
  };
}
