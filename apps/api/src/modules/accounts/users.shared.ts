import { randomBytes } from 'node:crypto';
import type { Profile } from '@passada/core/contracts/accounts';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, type HttpError } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import type { ErasedAccount } from './personal-data-owners.ts';

/** What the accounts' services share: their dependencies, the profile's shape and the field errors. */

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

export const USERNAME_TAKEN = 'Este nome de usuário já está em uso.';
export const EMAIL_TAKEN = 'Este e-mail já está cadastrado.';

export function toProfile(user: {
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

export function fieldErrors(errors: Record<string, string>): HttpError {
  const first = Object.values(errors)[0] ?? 'Dados inválidos.';
  return badRequest(first, 'validation_error', errors);
}

export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}
