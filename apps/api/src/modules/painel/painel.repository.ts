import { and, count, desc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  auditLog,
  registrationCheckins,
  staff,
  staffSessions,
  stockMovements,
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

export async function recordFailedLogin(db: Conn, id: number, lockAfter: number, lockUntil: Date) {
  await db
    .update(staff)
    .set({
      failedLogins: sql`${staff.failedLogins} + 1`,
      lockedUntil: sql`case when ${staff.failedLogins} + 1 >= ${lockAfter} then ${lockUntil.toISOString()}::timestamptz else ${staff.lockedUntil} end`,
    })
    .where(eq(staff.id, id));
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

export async function revokeAllSessions(db: Conn, staffId: number, now: Date) {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)));
}

export async function insertAudit(db: Conn, row: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(row);
}

export async function listAudit(
  db: Conn,
  filters: { entity?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: AuditRow[]; total: number }> {
  const where: SQL | undefined = filters.entity ? eq(auditLog.entity, filters.entity) : undefined;
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

export async function insertStockMovement(db: Conn, row: typeof stockMovements.$inferInsert): Promise<void> {
  await db.insert(stockMovements).values(row);
}

export function listStockMovements(db: Conn, combo: { productId: number; colorId: number; sizeId: number }) {
  return db
    .select({
      id: stockMovements.id,
      delta: stockMovements.delta,
      quantityAfter: stockMovements.quantityAfter,
      reason: stockMovements.reason,
      note: stockMovements.note,
      staffEmail: staff.email,
      at: stockMovements.at,
    })
    .from(stockMovements)
    .leftJoin(staff, eq(staff.id, stockMovements.staffId))
    .where(
      and(
        eq(stockMovements.productId, combo.productId),
        eq(stockMovements.colorId, combo.colorId),
        eq(stockMovements.sizeId, combo.sizeId),
      ),
    )
    .orderBy(desc(stockMovements.at), desc(stockMovements.id));
}

export type CheckinRow = typeof registrationCheckins.$inferSelect;

export async function findCheckins(db: Conn, registrationIds: number[]): Promise<CheckinRow[]> {
  if (!registrationIds.length) return [];
  return db
    .select()
    .from(registrationCheckins)
    .where(inArray(registrationCheckins.registrationId, registrationIds));
}

/** The first check-in wins (primary key); a second one gets undefined and reads the first. */
export async function insertCheckin(
  db: Conn,
  row: { registrationId: number; staffId: number; staffName: string; at: Date },
): Promise<CheckinRow | undefined> {
  const [created] = await db.insert(registrationCheckins).values(row).onConflictDoNothing().returning();
  return created;
}

/**
 * Removes the check-in made at `at` (the one staff saw when they chose to undo it), answering it; a
 * newer check-in, or none, gives undefined and stays as it is.
 */
export async function deleteCheckin(
  db: Conn,
  registrationId: number,
  at: Date,
): Promise<CheckinRow | undefined> {
  const [removed] = await db
    .delete(registrationCheckins)
    .where(and(eq(registrationCheckins.registrationId, registrationId), eq(registrationCheckins.at, at)))
    .returning();
  return removed;
}
