import { and, count, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  accountNotices,
  addresses,
  authTokens,
  customerNotes,
  customerTags,
  emailConfirmations,
  loginDevices,
  loginFailures,
  loginLinks,
  passwordResets,
  users,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type UserRow = typeof users.$inferSelect;

export async function findActiveUserByLogin(db: Conn, login: string): Promise<UserRow | null> {
  const lower = login.toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(and(isNull(users.deletedAt), or(eq(sql`lower(${users.username})`, lower), eq(users.email, lower))))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Conn, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findActiveUserByEmail(db: Conn, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Which of username / e-mail already belong to someone else (deleted accounts hold placeholders). */
export async function findTaken(
  db: Conn,
  values: { username?: string; email?: string },
  exceptUserId?: number,
): Promise<{ username: boolean; email: boolean }> {
  const conds = [];
  if (values.username) conds.push(eq(sql`lower(${users.username})`, values.username.toLowerCase()));
  if (values.email) conds.push(eq(users.email, values.email.toLowerCase()));
  if (conds.length === 0) return { username: false, email: false };
  const rows = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(and(or(...conds), exceptUserId === undefined ? undefined : ne(users.id, exceptUserId)));
  return {
    username:
      !!values.username && rows.some((r) => r.username.toLowerCase() === values.username?.toLowerCase()),
    email: !!values.email && rows.some((r) => r.email === values.email?.toLowerCase()),
  };
}

export async function insertUser(
  db: Conn,
  values: { username: string; email: string; fullName: string; passwordHash: string },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert users returned nothing');
  return row;
}

export async function updateUser(
  db: Conn,
  id: number,
  values: Partial<
    Pick<UserRow, 'username' | 'email' | 'fullName' | 'passwordHash' | 'deletedAt' | 'emailConfirmedAt'>
  >,
): Promise<UserRow> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  if (!row) throw new Error('update users returned nothing');
  return row;
}

export async function insertToken(
  db: Conn,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.insert(authTokens).values({ userId, tokenHash, expiresAt });
}

export async function revokeToken(db: Conn, tokenHash: string, at: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ revokedAt: at })
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt)));
}

/** Revokes every live token of a user, but the one whose hash is `keepHash` when given. */
export async function revokeUserTokens(db: Conn, userId: number, at: Date, keepHash?: string): Promise<void> {
  await db
    .update(authTokens)
    .set({ revokedAt: at })
    .where(
      and(
        eq(authTokens.userId, userId),
        isNull(authTokens.revokedAt),
        keepHash === undefined ? undefined : ne(authTokens.tokenHash, keepHash),
      ),
    );
}

/**
 * Recent failures of untrusted browsers (no live device cookie) on one account or from one address;
 * the failures of a trusted device count for that device only.
 */
export async function countFailures(
  db: Conn,
  by: { account: string } | { ip: string } | { deviceId: number },
  since: Date,
): Promise<number> {
  const who =
    'deviceId' in by
      ? eq(loginFailures.deviceId, by.deviceId)
      : and(
          'account' in by ? eq(loginFailures.account, by.account) : eq(loginFailures.ip, by.ip),
          isNull(loginFailures.deviceId),
        );
  const [row] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(who, gt(loginFailures.at, since)));
  return row?.n ?? 0;
}

/**
 * Where an attempt stands: `device` (judged by its trusted device cookie alone), `ok` (an untrusted
 * browser under the limits), each with the failure row it took (`failureId`), or blocked for untrusted
 * browsers by the `account`'s or the `ip`'s failures.
 */
export type LoginSlot = { kind: 'device' | 'ok'; failureId: number } | { kind: 'account' | 'ip' };

/**
 * Counts the recent failures and records this attempt as one, under a transaction-scoped advisory
 * lock on the account: parallel attempts on one account queue here, each seeing the rows of those
 * before it, across connections and server processes. An attempt with a trusted device (`deviceId`)
 * takes a slot of that device while it has fewer than `maxPerDevice` failures; past them the device is
 * no longer trusted and the attempt is judged as an untrusted browser's (OWASP device cookies).
 */
export async function takeLoginSlot(
  db: Db,
  o: {
    account: string;
    ip: string;
    now: Date;
    since: Date;
    deviceId: number | null;
    maxPerDevice: number;
    maxPerAccount: number;
    maxPerIp: number;
  },
): Promise<LoginSlot> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:${o.account}`}))`);
    if (o.deviceId !== null) {
      const byDevice = await countFailures(tx, { deviceId: o.deviceId }, o.since);
      if (byDevice < o.maxPerDevice) {
        return { kind: 'device', failureId: await insertFailure(tx, o.account, o.ip, o.now, o.deviceId) };
      }
    }
    const byAccount = await countFailures(tx, { account: o.account }, o.since);
    if (byAccount >= o.maxPerAccount) return { kind: 'account' };
    const byIp = await countFailures(tx, { ip: o.ip }, o.since);
    if (byIp >= o.maxPerIp) return { kind: 'ip' };
    return { kind: 'ok', failureId: await insertFailure(tx, o.account, o.ip, o.now, null) };
  });
}

export async function insertFailure(
  db: Conn,
  account: string,
  ip: string,
  at: Date,
  deviceId: number | null = null,
): Promise<number> {
  const [row] = await db
    .insert(loginFailures)
    .values({ account, ip, at, deviceId })
    .returning({ id: loginFailures.id });
  if (!row) throw new Error('insert login_failures returned nothing');
  return row.id;
}

/** A right password gives back the slot its attempt took. */
export async function deleteFailure(db: Conn, id: number): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, id));
}

/** Failures older than any window are no longer needed; dropping them keeps the table small. */
export async function pruneFailures(db: Conn, before: Date): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.at, before));
}

export async function clearAccountFailures(db: Conn, account: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.account, account));
}

/** A right password through a trusted device gives back its slot and starts the device's count again. */
export async function clearDeviceFailures(db: Conn, deviceId: number): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.deviceId, deviceId));
}

/** The id of the user's device whose nonce hashes to `tokenHash`, if it signed in since `usedSince`. */
export async function findLiveDevice(
  db: Conn,
  userId: number,
  tokenHash: string,
  usedSince: Date,
): Promise<number | null> {
  const [row] = await db
    .select({ id: loginDevices.id })
    .from(loginDevices)
    .where(
      and(
        eq(loginDevices.tokenHash, tokenHash),
        eq(loginDevices.userId, userId),
        gt(loginDevices.lastUsedAt, usedSince),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

export async function insertDevice(db: Conn, userId: number, tokenHash: string, at: Date): Promise<void> {
  await db.insert(loginDevices).values({ userId, tokenHash, createdAt: at, lastUsedAt: at });
}

export async function touchDevice(db: Conn, deviceId: number, at: Date): Promise<void> {
  await db.update(loginDevices).set({ lastUsedAt: at }).where(eq(loginDevices.id, deviceId));
}

/**
 * Records a new sign-in link unless the account already had `maxPerHour` in the hour before `now`;
 * counted and inserted under a lock on the account, so two jobs at once cannot both pass the count.
 */
export async function insertLoginLinkWithinLimit(
  db: Db,
  o: { userId: number; tokenHash: string; now: Date; expiresAt: Date; maxPerHour: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login-link:${o.userId}`}))`);
    const [row] = await tx
      .select({ n: count() })
      .from(loginLinks)
      .where(
        and(eq(loginLinks.userId, o.userId), gt(loginLinks.createdAt, new Date(o.now.getTime() - 3_600_000))),
      );
    if ((row?.n ?? 0) >= o.maxPerHour) return false;
    await tx.insert(loginLinks).values({
      userId: o.userId,
      tokenHash: o.tokenHash,
      expiresAt: o.expiresAt,
      createdAt: o.now,
    });
    return true;
  });
}

/** Marks a live sign-in link as used and answers its user id; one conditional UPDATE, so it works once. */
export async function consumeLoginLink(db: Conn, tokenHash: string, now: Date): Promise<number | null> {
  const [row] = await db
    .update(loginLinks)
    .set({ usedAt: now })
    .where(and(eq(loginLinks.tokenHash, tokenHash), isNull(loginLinks.usedAt), gt(loginLinks.expiresAt, now)))
    .returning({ userId: loginLinks.userId });
  return row?.userId ?? null;
}

export async function insertPasswordReset(
  db: Conn,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.insert(passwordResets).values({ userId, tokenHash, expiresAt });
}

/**
 * Marks a live reset link as used and answers its user id; one conditional UPDATE, so a link that two
 * requests race to use works once.
 */
export async function consumePasswordReset(db: Conn, tokenHash: string, now: Date): Promise<number | null> {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return row?.userId ?? null;
}

export async function expireUserPasswordResets(db: Conn, userId: number, now: Date): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** LGPD erasure: what only identifies the person goes; the user row stays for orders and registrations. */
export async function erasePersonalData(db: Conn, userId: number): Promise<void> {
  await db.delete(accountNotices).where(eq(accountNotices.userId, userId));
  await db.delete(addresses).where(eq(addresses.userId, userId));
  await db.delete(authTokens).where(eq(authTokens.userId, userId));
  await db.delete(passwordResets).where(eq(passwordResets.userId, userId));
  await db.delete(loginLinks).where(eq(loginLinks.userId, userId));
  await db.delete(loginDevices).where(eq(loginDevices.userId, userId));
  await db.delete(emailConfirmations).where(eq(emailConfirmations.userId, userId));
  // What staff wrote about the person goes with it (docs/decisions/0080).
  await db.delete(customerNotes).where(eq(customerNotes.userId, userId));
  await db.delete(customerTags).where(eq(customerTags.userId, userId));
}

export type NoticeKind = 'email_changed' | 'password_changed';
export type NoticeRow = typeof accountNotices.$inferSelect;

export async function insertNotice(
  db: Conn,
  values: { userId: number; kind: NoticeKind; email: string },
): Promise<number> {
  const [row] = await db.insert(accountNotices).values(values).returning({ id: accountNotices.id });
  if (!row) throw new Error('insert account_notices returned nothing');
  return row.id;
}

export async function findNotice(db: Conn, id: number): Promise<NoticeRow | null> {
  const [row] = await db.select().from(accountNotices).where(eq(accountNotices.id, id)).limit(1);
  return row ?? null;
}

export async function markNoticeSent(db: Conn, id: number, at: Date): Promise<void> {
  await db.update(accountNotices).set({ sentAt: at }).where(eq(accountNotices.id, id));
}

/**
 * A confirmation link asked for `email`, within `maxPerHour` per account (counted under a lock on the
 * account, so parallel requests cannot pass it together). Its hash is a placeholder nobody holds until
 * the mail job puts the mailed token's; answers the row's id, or null when the hour's links are spent.
 */
export async function insertEmailConfirmationWithinLimit(
  db: Conn,
  o: {
    userId: number;
    email: string;
    placeholderHash: string;
    now: Date;
    expiresAt: Date;
    maxPerHour: number;
  },
): Promise<number | null> {
  // Inside the caller's transaction (sign-up, a new e-mail) it is a savepoint of it.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`email-confirmation:${o.userId}`}))`);
    const [row] = await tx
      .select({ n: count() })
      .from(emailConfirmations)
      .where(
        and(
          eq(emailConfirmations.userId, o.userId),
          gt(emailConfirmations.createdAt, new Date(o.now.getTime() - 3_600_000)),
        ),
      );
    if ((row?.n ?? 0) >= o.maxPerHour) return null;
    const [created] = await tx
      .insert(emailConfirmations)
      .values({
        userId: o.userId,
        email: o.email,
        tokenHash: o.placeholderHash,
        expiresAt: o.expiresAt,
        createdAt: o.now,
      })
      .returning({ id: emailConfirmations.id });
    return created!.id;
  });
}

/** A confirmation link still unused, for the mail job. */
export async function findEmailConfirmation(db: Conn, id: number) {
  const [row] = await db.select().from(emailConfirmations).where(eq(emailConfirmations.id, id)).limit(1);
  return row ?? null;
}

/** The job's token for an unused link, with its new expiry; false when the link was used meanwhile. */
export async function setEmailConfirmationToken(
  db: Conn,
  id: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<boolean> {
  const rows = await db
    .update(emailConfirmations)
    .set({ tokenHash, expiresAt })
    .where(and(eq(emailConfirmations.id, id), isNull(emailConfirmations.usedAt)))
    .returning({ id: emailConfirmations.id });
  return rows.length > 0;
}

/**
 * Spends a live link (one conditional UPDATE: it works once) and marks the account's e-mail confirmed
 * when it is still the address the link went to. Answers whether the account was confirmed.
 */
export async function consumeEmailConfirmation(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(emailConfirmations)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailConfirmations.tokenHash, tokenHash),
          isNull(emailConfirmations.usedAt),
          gt(emailConfirmations.expiresAt, now),
        ),
      )
      .returning({ userId: emailConfirmations.userId, email: emailConfirmations.email });
    if (!link) return false;
    const confirmed = await tx
      .update(users)
      .set({ emailConfirmedAt: now })
      .where(and(eq(users.id, link.userId), eq(users.email, link.email), isNull(users.deletedAt)))
      .returning({ id: users.id });
    return confirmed.length > 0;
  });
}
