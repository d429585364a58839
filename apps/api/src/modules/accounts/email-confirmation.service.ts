import type { Db, Tx } from '../../db/client.ts';
import { hashToken } from '../../plugins/auth.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import { emailConfirmationMail } from './account-mail.ts';
import * as repo from './users.repository.ts';
import { fieldErrors, newOpaqueToken, type UsersServiceDeps } from './users.shared.ts';

const EMAIL_CONFIRMATION_SENT = 'Enviamos um link de confirmação para o seu e-mail.';
const INVALID_CONFIRMATION =
  'Link de confirmação inválido, já usado ou expirado. Entre na sua conta e peça outro em "Meus dados".';

/** Confirming the account's e-mail address by a link (docs/decisions/0057). */
export function createEmailConfirmation(deps: UsersServiceDeps) {
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

  return { askEmailConfirmation, resendEmailConfirmation, sendEmailConfirmation, confirmEmail };
}
