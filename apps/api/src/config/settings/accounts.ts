import { z } from 'zod';

/** Customers' accounts: sessions, sign-up and sign-in limits, device cookies, sign-in and confirmation links. */
export const accountSettings = {
  AUTH_TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 7),
  /** Sign-ups (and password-reset e-mails) allowed per IP per hour. */
  SIGNUP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  /**
   * Failed logins from one IP within 15 minutes before browsers without a device cookie get 429 there
   * (docs/decisions/0024-device-cookies-login.md).
   */
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
  /** Failed logins on one account within 15 minutes before browsers without a device cookie get 429 on it. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  /** Failed logins from one device cookie within 15 minutes before that cookie is no longer trusted. */
  LOGIN_MAX_FAILURES_PER_DEVICE: z.coerce.number().int().min(1).default(10),
  /** A device cookie not used to sign in for this many days is forgotten (cookie and server record). */
  LOGIN_DEVICE_TTL_DAYS: z.coerce.number().int().min(1).max(400).default(180),
  /** How long the e-mailed sign-in link of a blocked attempt with the right password stays valid. */
  LOGIN_LINK_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Sign-in links e-mailed to one account per hour at most. */
  LOGIN_LINK_MAX_PER_HOUR: z.coerce.number().int().min(1).default(3),
  /** How long the link that confirms an account's e-mail works (docs/decisions/0057). */
  EMAIL_CONFIRMATION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  /** E-mail confirmation links sent to one account per hour at most (sign-up's own included). */
  EMAIL_CONFIRMATION_MAX_PER_HOUR: z.coerce.number().int().min(1).default(3),
};
