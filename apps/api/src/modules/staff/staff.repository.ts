import { and, count, desc, eq, gt, gte, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  auditLog,
  staff,
  staffEvents,
  staffLoginThrottle,
  staffRecoveryCodes,
  staffSessions,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type StaffRow = typeof staff.$inferSelect;
export type NewStaffRow = typeof staff.$inferInsert;
export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export async function findStaffByEmail(db: Conn, email: string): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.email, email.toLowerCase()));
  return row;
}

export async function findStaffById(db: Conn, id: number): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row;
}

export function listStaff(db: Conn): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(staff.name);
}

/** The events assigned to each of `staffIds` (all members when absent), by member. */
export async function staffEventIds(db: Conn, staffIds?: number[]): Promise<Map<number, number[]>> {
  const rows = await db
    .select()
    .from(staffEvents)
    .where(staffIds ? inArray(staffEvents.staffId, staffIds) : undefined)
    .orderBy(staffEvents.eventId);
  const byMember = new Map<number, number[]>();
  for (const r of rows) byMember.set(r.staffId, [...(byMember.get(r.staffId) ?? []), r.eventId]);
  return byMember;
}

export async function replaceStaffEvents(db: Conn, staffId: number, eventIds: number[]): Promise<void> {
  await db.delete(staffEvents).where(eq(staffEvents.staffId, staffId));
  if (eventIds.length) await db.insert(staffEvents).values(eventIds.map((eventId) => ({ staffId, eventId })));
}

export async function countAdmins(db: Conn): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staff)
    .where(and(eq(staff.role, 'admin'), eq(staff.active, true)));
  return row?.n ?? 0;
}

/** Undefined when the e-mail is taken (the unique index decides, also under concurrency). */
export async function insertStaff(db: Conn, row: NewStaffRow): Promise<StaffRow | undefined> {
  const [created] = await db
    .insert(staff)
    .values({ ...row, email: row.email.toLowerCase() })
    .onConflictDoNothing()
    .returning();
  return created;
}

export async function updateStaff(
  db: Conn,
  id: number,
  patch: Partial<NewStaffRow>,
): Promise<StaffRow | undefined> {
  const [row] = await db.update(staff).set(patch).where(eq(staff.id, id)).returning();
  return row;
}

/**
 * Counts one attempt on `key` before its secret is checked, in one statement (the row lock of the
 * upsert orders parallel attempts): `locked` when a lock is in force, and then nothing is counted.
 * A lock or a window that is over starts the count again at this attempt; the attempt that reaches
 * `lockAfter` sets the lock (a success then deletes the row, see clearAttempts).
 */
export async function takeAttempt(
  db: Conn,
  o: { key: string; now: Date; lockAfter: number; lockUntil: Date; windowStartedBefore: Date },
): Promise<{ locked: true } | { locked: false; failures: number; lockedUntil: Date | null }> {
  const t = staffLoginThrottle;
  const now = sql`${o.now.toISOString()}::timestamptz`;
  const stale = sql`(${t.lockedUntil} is not null or ${t.windowStart} <= ${o.windowStartedBefore.toISOString()}::timestamptz)`;
  const failures = sql`case when ${stale} then 1 else ${t.failures} + 1 end`;
  const [row] = await db
    .insert(t)
    .values({
      key: o.key,
      failures: 1,
      windowStart: o.now,
      lockedUntil: o.lockAfter <= 1 ? o.lockUntil : null,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures,
        windowStart: sql`case when ${stale} then ${now} else ${t.windowStart} end`,
        lockedUntil: sql`case when ${failures} >= ${o.lockAfter} then ${o.lockUntil.toISOString()}::timestamptz end`,
      },
      // A lock in force: no update, no row returned.
      setWhere: sql`${t.lockedUntil} is null or ${t.lockedUntil} <= ${now}`,
    })
    .returning({ failures: t.failures, lockedUntil: t.lockedUntil });
  return row ? { locked: false, ...row } : { locked: true };
}

/**
 * Gives back one attempt that turned out not to be a failure (a right password still waiting for its
 * 2FA code), and the lock it set if it was the one that reached `lockAfter` (a lock in force would
 * have refused it before it was counted).
 */
export async function releaseAttempt(db: Conn, key: string, lockAfter: number): Promise<void> {
  const t = staffLoginThrottle;
  await db
    .update(t)
    .set({
      failures: sql`greatest(${t.failures} - 1, 0)`,
      lockedUntil: sql`case when ${t.failures} - 1 < ${lockAfter} then null else ${t.lockedUntil} end`,
    })
    .where(eq(t.key, key));
}

/** A right secret (or an admin's reset) forgets the failures of `key`. */
export async function clearAttempts(db: Conn, key: string): Promise<void> {
  await db.delete(staffLoginThrottle).where(eq(staffLoginThrottle.key, key));
}

/** Counters whose window and lock are long over; dropping them keeps the table small. */
export async function pruneAttempts(db: Conn, before: Date): Promise<void> {
  await db
    .delete(staffLoginThrottle)
    .where(
      and(
        lt(staffLoginThrottle.windowStart, before),
        sql`coalesce(${staffLoginThrottle.lockedUntil}, ${staffLoginThrottle.windowStart}) < ${before.toISOString()}::timestamptz`,
      ),
    );
}

/** Replaces a person's recovery codes with these (hashes). */
export async function replaceRecoveryCodes(db: Conn, staffId: number, hashes: string[]): Promise<void> {
  await deleteRecoveryCodes(db, staffId);
  if (hashes.length)
    await db.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ staffId, codeHash })));
}

export async function deleteRecoveryCodes(db: Conn, staffId: number): Promise<void> {
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
}

/** Spends an unused recovery code in one statement, so two sign-ins cannot both use it. */
export async function useRecoveryCode(
  db: Conn,
  staffId: number,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.staffId, staffId),
        eq(staffRecoveryCodes.codeHash, codeHash),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Conn, staffId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/**
 * Accepts a TOTP time step only if it is newer than the last one used, in one statement, so a code
 * seen over someone's shoulder cannot be replayed.
 */
export async function claimTotpStep(db: Conn, id: number, step: number): Promise<boolean> {
  const rows = await db
    .update(staff)
    .set({ totpLastStep: step })
    .where(and(eq(staff.id, id), sql`coalesce(${staff.totpLastStep}, -1) < ${step}`))
    .returning({ id: staff.id });
  return rows.length > 0;
}

export async function insertSession(db: Conn, staffId: number, tokenHash: string, expiresAt: Date) {
  await db.insert(staffSessions).values({ staffId, tokenHash, expiresAt });
}

export async function findLiveSession(db: Conn, tokenHash: string, now: Date): Promise<StaffRow | undefined> {
  const [row] = await db
    .select({ staff })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.tokenHash, tokenHash),
        isNull(staffSessions.revokedAt),
        gt(staffSessions.expiresAt, now),
        eq(staff.active, true),
      ),
    )
    .limit(1);
  return row?.staff;
}

export async function revokeSession(db: Conn, tokenHash: string, now: Date) {
  await db.update(staffSessions).set({ revokedAt: now }).where(eq(staffSessions.tokenHash, tokenHash));
}

/** Every live session of the person, but the one whose hash is `keepHash` when given. */
export async function revokeAllSessions(db: Conn, staffId: number, now: Date, keepHash?: string) {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(staffSessions.staffId, staffId),
        isNull(staffSessions.revokedAt),
        keepHash === undefined ? undefined : ne(staffSessions.tokenHash, keepHash),
      ),
    );
}

export async function insertAudit(db: Conn, row: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(row);
}

export async function deleteAuditBefore(db: Conn, before: Date): Promise<number> {
  return (await db.delete(auditLog).where(lt(auditLog.at, before)).returning({ id: auditLog.id })).length;
}

export interface AuditFilters {
  entity?: string | undefined;
  action?: string | undefined;
  /** Part of the e-mail, any case. */
  staff?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  until?: Date | undefined;
}

export async function listAudit(
  db: Conn,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditRow[]; total: number }> {
  const like = filters.staff ? `%${filters.staff.toLowerCase().replace(/[\\%_]/g, '\\$&')}%` : undefined;
  const where: SQL | undefined = and(
    filters.entity ? eq(auditLog.entity, filters.entity) : undefined,
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    like ? sql`lower(${auditLog.staffEmail}) like ${like}` : undefined,
    filters.from ? gte(auditLog.at, filters.from) : undefined,
    filters.until ? lt(auditLog.at, filters.until) : undefined,
  );
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  return { rows, total: total?.n ?? 0 };
}
