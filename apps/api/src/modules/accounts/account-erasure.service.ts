import type { Tx } from '../../db/client.ts';
import * as repo from './users.repository.ts';
import type { UsersServiceDeps } from './users.shared.ts';

/** Deleting an account: its personal data erased, the row kept anonymised (LGPD art. 18 VI). */
export function createAccountErasure(
  deps: UsersServiceDeps,
  requirePassword: (userId: number, password: string, field: string) => Promise<void>,
) {
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

  return { deleteAccount, eraseAccount };
}
