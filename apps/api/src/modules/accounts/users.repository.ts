import { and, count, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  accountNotices,
  addresses,
  authTokens,
  loginFailures,
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
  values: Partial<Pick<UserRow, 'username' | 'email' | 'fullName' | 'passwordHash' | 'deletedAt'>>,
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

export async function countFailures(
  db: Conn,
  by: { account: string } | { ip: string },
  since: Date,
): Promise<number> {
  const where =
    'account' in by
      ? and(eq(loginFailures.account, by.account), gt(loginFailures.at, since))
      : and(eq(loginFailures.ip, by.ip), gt(loginFailures.at, since));
  const [row] = await db.select({ n: count() }).from(loginFailures).where(where);
  return row?.n ?? 0;
}

/**
 * Counts the recent failures and records this attempt as one, under a transaction-scoped advisory
 * lock on the account: parallel attempts on one account queue here, each seeing the rows of those
 * before it, across connections and server processes.
 */
export async function takeLoginSlot(
  db: Db,
  o: { account: string; ip: string; now: Date; since: Date; maxPerAccount: number; maxPerIp: number },
): Promise<'ok' | 'account' | 'ip'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:${o.account}`}))`);
    const byAccount = await countFailures(tx, { account: o.account }, o.since);
    if (byAccount >= o.maxPerAccount) return 'account';
    const byIp = await countFailures(tx, { ip: o.ip }, o.since);
    if (byIp >= o.maxPerIp) return 'ip';
    await insertFailure(tx, o.account, o.ip, o.now);
    return 'ok';
  });
}

export async function insertFailure(db: Conn, account: string, ip: string, at: Date): Promise<void> {
  await db.insert(loginFailures).values({ account, ip, at });
}

/** Failures older than any window are no longer needed; dropping them keeps the table small. */
export async function pruneFailures(db: Conn, before: Date): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.at, before));
}

export async function clearAccountFailures(db: Conn, account: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.account, account));
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
