import {
  type AfterSaleRules,
  DEFAULT_AFTER_SALE_RULES,
  registrationChangeText,
} from '@passada/core/after-sale';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { eventAfterSaleRules, registrationChanges } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type RegistrationChangeRow = typeof registrationChanges.$inferSelect;
export type NewRegistrationChange = typeof registrationChanges.$inferInsert;

/** The event's rules and their version; the defaults at version 1 while the organiser saved none. */
export async function findRules(
  db: Conn,
  eventId: number,
): Promise<{ rules: AfterSaleRules; version: number }> {
  const [row] = await db.select().from(eventAfterSaleRules).where(eq(eventAfterSaleRules.eventId, eventId));
  if (!row) return { rules: DEFAULT_AFTER_SALE_RULES, version: 1 };
  const { eventId: _, version, ...rules } = row;
  return { rules, version };
}

/**
 * Saves the rules if they are still at `version`: the first save inserts (the defaults were version
 * 1), a later one is a conditional UPDATE. Answers the new version, or null when someone saved first.
 */
export async function saveRules(
  tx: Tx,
  eventId: number,
  rules: AfterSaleRules,
  version: number,
): Promise<number | null> {
  if (version === 1) {
    const [inserted] = await tx
      .insert(eventAfterSaleRules)
      .values({ eventId, ...rules, version: 2 })
      .onConflictDoNothing()
      .returning({ version: eventAfterSaleRules.version });
    if (inserted) return inserted.version;
  }
  const [updated] = await tx
    .update(eventAfterSaleRules)
    .set({ ...rules, version: sql`${eventAfterSaleRules.version} + 1` })
    .where(and(eq(eventAfterSaleRules.eventId, eventId), eq(eventAfterSaleRules.version, version)))
    .returning({ version: eventAfterSaleRules.version });
  return updated?.version ?? null;
}

export async function insertChange(tx: Tx, values: NewRegistrationChange): Promise<RegistrationChangeRow> {
  const [row] = await tx.insert(registrationChanges).values(values).returning();
  if (!row) throw new Error('alteração não registrada');
  return row;
}

/** A registration's history, newest first. */
export async function changesOf(db: Conn, registrationId: number): Promise<RegistrationChangeRow[]> {
  return db
    .select()
    .from(registrationChanges)
    .where(eq(registrationChanges.registrationId, registrationId))
    .orderBy(desc(registrationChanges.id));
}

/** The histories of several registrations, oldest first. */
export async function changesOfMany(db: Conn, registrationIds: number[]): Promise<RegistrationChangeRow[]> {
  if (registrationIds.length === 0) return [];
  return db
    .select()
    .from(registrationChanges)
    .where(inArray(registrationChanges.registrationId, registrationIds))
    .orderBy(asc(registrationChanges.id));
}

/** Each registration's history in Portuguese sentences, oldest first (docs/decisions/0041). */
export async function historyOf(db: Conn, registrationIds: number[]): Promise<Map<number, string[]>> {
  const byId = new Map<number, string[]>();
  for (const c of await changesOfMany(db, registrationIds)) {
    const list = byId.get(c.registrationId) ?? [];
    list.push(registrationChangeText(c));
    byId.set(c.registrationId, list);
  }
  return byId;
}
