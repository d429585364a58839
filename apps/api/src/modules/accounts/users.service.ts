import type { Profile, SignUpRequest, UpdateProfileRequest } from '@passada/core/contracts/accounts';
import type { Db, Tx } from '../../db/client.ts';
import { HttpError } from '../../plugins/errors.ts';
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword } from '../../plugins/passwords.ts';
import { createAccountErasure } from './account-erasure.service.ts';
import { createEmailConfirmation } from './email-confirmation.service.ts';
import { createPasswords } from './passwords.service.ts';
import { createSignIn } from './sign-in.service.ts';
import * as repo from './users.repository.ts';
import {
  EMAIL_TAKEN,
  fieldErrors,
  isUniqueViolation,
  toProfile,
  USERNAME_TAKEN,
  type UsersServiceDeps,
} from './users.shared.ts';

export {
  NOTICE_RESET_TTL_HOURS,
  PASSWORD_RESET_SENT,
  PASSWORD_RESET_TTL_MINUTES,
} from './passwords.service.ts';
export { ACCOUNT_LOCKED, IP_THROTTLED, LOGIN_WINDOW_MINUTES, type SignedIn } from './sign-in.service.ts';
/** For test factories, which add accounts without going through sign-up. */
export { insertUser } from './users.repository.ts';
export type { UsersServiceDeps } from './users.shared.ts';

/**
 * Sign-up, tokens, profile, password change and reset, account deletion (docs/product.md §6): the
 * account's own steps here, the rest from sign-in, e-mail confirmation, passwords and erasure.
 */
export function createUsersService(deps: UsersServiceDeps) {
  const { issueToken, trustNewDevice, logIn, logInWithLink, sendLoginLink, logOut } = createSignIn(deps);
  const { askEmailConfirmation, resendEmailConfirmation, sendEmailConfirmation, confirmEmail } =
    createEmailConfirmation(deps);
  const {
    notify,
    requirePassword,
    changePassword,
    requestPasswordReset,
    sendPasswordReset,
    sendAccountNotice,
    confirmPasswordReset,
  } = createPasswords(deps, trustNewDevice);
  const { deleteAccount, eraseAccount } = createAccountErasure(deps, requirePassword);

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
