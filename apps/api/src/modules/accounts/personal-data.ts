import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  accountNotices,
  authTokens,
  loginDevices,
  loginFailures,
  loginLinks,
  passwordResets,
  rateLimitCounters,
} from '../../db/schema/index.ts';

/** How long each kind of account data is kept (docs/decisions/0016-hardening.md). */
export const RETENTION = {
  /** Expired or revoked sign-in tokens: 30 days, for answering "was my account used?". */
  tokensDays: 30,
  /** Used or expired reset links: 30 days. */
  passwordResetsDays: 30,
  /** Failed logins: 1 day (the lockout looks back 15 minutes). */
  loginFailuresDays: 1,
  /** Per-IP counters: 1 day (the longest window is one hour). */
  rateCountersDays: 1,
  /** Security notices, with the address they went to: 180 days. */
  noticesDays: 180,
  /** Used or expired sign-in links: 30 days, like reset links. */
  loginLinksDays: 30,
} as const;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** Deletes account data past its retention period; answers how many rows of each kind went. */
/** `deviceTtlDays` is LOGIN_DEVICE_TTL_DAYS: a device cookie unused that long is no longer trusted. */
export async function applyRetention(
  db: Db,
  now: Date,
  deviceTtlDays: number,
): Promise<Record<string, number>> {
  const tokens = await db
    .delete(authTokens)
    .where(
      or(
        lt(authTokens.expiresAt, daysBefore(now, RETENTION.tokensDays)),
        and(isNotNull(authTokens.revokedAt), lt(authTokens.revokedAt, daysBefore(now, RETENTION.tokensDays))),
      ),
    )
    .returning({ id: authTokens.id });
  const resets = await db
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, daysBefore(now, RETENTION.passwordResetsDays)))
    .returning({ id: passwordResets.id });
  const failures = await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, daysBefore(now, RETENTION.loginFailuresDays)))
    .returning({ id: loginFailures.id });
  const counters = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowStart, daysBefore(now, RETENTION.rateCountersDays)))
    .returning({ key: rateLimitCounters.key });
  const notices = await db
    .delete(accountNotices)
    .where(lt(accountNotices.createdAt, daysBefore(now, RETENTION.noticesDays)))
    .returning({ id: accountNotices.id });
  const links = await db
    .delete(loginLinks)
    .where(lt(loginLinks.expiresAt, daysBefore(now, RETENTION.loginLinksDays)))
    .returning({ id: loginLinks.id });
  const devices = await db
    .delete(loginDevices)
    .where(lt(loginDevices.lastUsedAt, daysBefore(now, deviceTtlDays)))
    .returning({ id: loginDevices.id });
  return {
    tokens: tokens.length,
    passwordResets: resets.length,
    loginFailures: failures.length,
    rateLimitCounters: counters.length,
    accountNotices: notices.length,
    loginLinks: links.length,
    loginDevices: devices.length,
  };
}
