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

/** One change of a registration's history. */
export async function findChange(db: Conn, id: number): Promise<RegistrationChangeRow | undefined> {
  const [row] = await db.select().from(registrationChanges).where(eq(registrationChanges.id, id));
  return row;
}

/** The registration a change's charge paid for (`cobranca` in the history of that kind), if recorded. */
export async function registrationOfChangeCharge(
  db: Conn,
  kind: RegistrationChangeRow['kind'],
  chargeId: number,
): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: registrationChanges.registrationId })
    .from(registrationChanges)
    .where(
      and(
        eq(registrationChanges.kind, kind),
        sql`(${registrationChanges.detail}->>'cobranca')::int = ${chargeId}`,
      ),
    );
  return row ? { id: row.id } : null;
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
  return (await afterSaleOf(db, registrationIds)).history;
}

/**
 * What a change of distance moved of the registration's price: the charge that paid a dearer one (the
 * difference and its fee, `cobranca` in its detail), less what a cheaper one gave back. A change by staff
 * moves no money (decision 0060), a transfer is paid by the new runner for the handover, not the place.
 */
function paidDifferenceCents(c: RegistrationChangeRow): number {
  // A refused special price's difference (docs/decisions/0068) is paid for the place itself.
  if (c.kind === 'diferenca_preco') return c.feeCents;
  if (c.kind !== 'troca_distancia') return 0;
  const paid = (c.detail as { cobranca?: unknown }).cobranca == null ? 0 : c.feeCents;
  return paid - c.refundCents;
}

/**
 * Each registration's history (as `historyOf`) and what its changes of distance moved of its price, in
 * one read: the runner's card shows the price paid with them (the sale's total plus the differences
 * paid, less the differences returned).
 */
export async function afterSaleOf(
  db: Conn,
  registrationIds: number[],
): Promise<{ history: Map<number, string[]>; paidDifferenceCents: Map<number, number> }> {
  const history = new Map<number, string[]>();
  const paid = new Map<number, number>();
  for (const c of await changesOfMany(db, registrationIds)) {
    history.set(c.registrationId, [...(history.get(c.registrationId) ?? []), registrationChangeText(c)]);
    paid.set(c.registrationId, (paid.get(c.registrationId) ?? 0) + paidDifferenceCents(c));
  }
  return { history, paidDifferenceCents: paid };
}
