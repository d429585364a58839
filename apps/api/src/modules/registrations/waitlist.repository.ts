import { and, asc, count, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventDays,
  type WaitlistStatus,
  waitlistEntries,
  waitlistHistory,
} from '../../db/schema/index.ts';
import { notifyEventsChanged } from '../events/events.service.ts';
import { unusedByCategory } from './team-quotas.repository.ts';

type Conn = Db | Tx;

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistHistoryRow = typeof waitlistHistory.$inferSelect;
type HistoryKind = WaitlistHistoryRow['kind'];

/** The statuses of an entry still in line or holding a place. */
export const LIVE: WaitlistStatus[] = ['aguardando', 'oferta', 'aceita'];

/**
 * Locks the category's row until the transaction ends and answers its places left and event. Every
 * move of the waitlist (join, offer, sweep) and every sale's UPDATE of the row take this lock, so what
 * they count stays true until they commit.
 */
export async function lockCategory(
  tx: Tx,
  categoryId: number,
): Promise<{ id: number; placesLeft: number; eventId: number; name: string } | undefined> {
  const [row] = await tx
    .select({
      id: eventCategories.id,
      placesLeft: eventCategories.placesLeft,
      eventId: eventDays.eventId,
      name: eventCategories.name,
    })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(eq(eventCategories.id, categoryId))
    .for('update', { of: eventCategories });
  return row;
}

/**
 * Per category: who waits in line, and the places held for someone (`offers`): the waitlist's outstanding
 * offers and the unused places of the teams' lasting quotas.
 */
export async function countsOf(
  db: Conn,
  categoryIds: number[],
  now: Date,
): Promise<Map<number, { waiting: number; offers: number }>> {
  const out = new Map<number, { waiting: number; offers: number }>();
  if (categoryIds.length === 0) return out;
  // The teams' quotas hold their unused places as an offer holds its one (docs/decisions/0076): read
  // with the waitlist's counts in one statement, since every place taken asks this.
  const rows = await db
    .select({
      categoryId: waitlistEntries.categoryId,
      kind: sql<string>`${waitlistEntries.status}::text`.as('kind'),
      n: sql<number>`count(*)::int`.as('n'),
    })
    .from(waitlistEntries)
    .where(
      and(
        inArray(waitlistEntries.categoryId, categoryIds),
        inArray(waitlistEntries.status, ['aguardando', 'oferta']),
      ),
    )
    .groupBy(waitlistEntries.categoryId, waitlistEntries.status)
    .unionAll(unusedByCategory(db, categoryIds, now));
  for (const id of categoryIds) out.set(id, { waiting: 0, offers: 0 });
  for (const r of rows) {
    const c = out.get(r.categoryId)!;
    if (r.kind === 'aguardando') c.waiting = r.n;
    else c.offers += r.n;
  }
  return out;
}

export async function insertEntry(
  tx: Tx,
  values: typeof waitlistEntries.$inferInsert,
): Promise<WaitlistEntryRow | undefined> {
  const [row] = await tx.insert(waitlistEntries).values(values).onConflictDoNothing().returning();
  // The public's places count someone waiting (docs/decisions/0047): the event's cached answer drops.
  if (row) await notifyEventsChanged(tx);
  return row;
}

export async function findEntry(db: Conn, id: number): Promise<WaitlistEntryRow | undefined> {
  const [row] = await db.select().from(waitlistEntries).where(eq(waitlistEntries.id, id));
  return row;
}

export async function lockEntry(tx: Tx, id: number): Promise<WaitlistEntryRow | undefined> {
  const [row] = await tx.select().from(waitlistEntries).where(eq(waitlistEntries.id, id)).for('update');
  return row;
}

/** The live entry of a CPF in a category, if any. */
export async function liveEntryOf(db: Conn, categoryId: number, cpf: string) {
  const [row] = await db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.categoryId, categoryId),
        eq(waitlistEntries.cpf, cpf),
        inArray(waitlistEntries.status, LIVE),
      ),
    );
  return row;
}

/** Position in line (1 = next to be offered) of a waiting entry: those waiting before it, plus one. */
export async function positionOf(db: Conn, entry: WaitlistEntryRow): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.categoryId, entry.categoryId),
        eq(waitlistEntries.status, 'aguardando'),
        sql`${waitlistEntries.id} < ${entry.id}`,
      ),
    );
  return (row?.n ?? 0) + 1;
}

/** Moves an entry from one status to another (only if it is still in `from`); answers the row. */
export async function move(
  tx: Tx,
  id: number,
  from: WaitlistStatus[],
  set: Partial<typeof waitlistEntries.$inferInsert> & { status: WaitlistStatus },
): Promise<WaitlistEntryRow | undefined> {
  const [row] = await tx
    .update(waitlistEntries)
    .set(set)
    .where(and(eq(waitlistEntries.id, id), inArray(waitlistEntries.status, from)))
    .returning();
  if (row) await notifyEventsChanged(tx);
  return row;
}

/** Outstanding offers of the category whose time ran out, marked expired. */
export async function expireOffers(tx: Tx, categoryId: number, now: Date): Promise<WaitlistEntryRow[]> {
  const expired = await tx
    .update(waitlistEntries)
    .set({ status: 'expirada', endedAt: now })
    .where(
      and(
        eq(waitlistEntries.categoryId, categoryId),
        eq(waitlistEntries.status, 'oferta'),
        lte(waitlistEntries.offerExpiresAt, now),
      ),
    )
    .returning();
  if (expired.length) await notifyEventsChanged(tx);
  return expired;
}

/** The first `n` in line of the category, oldest first. */
export async function nextWaiting(tx: Tx, categoryId: number, n: number): Promise<WaitlistEntryRow[]> {
  if (n <= 0) return [];
  return tx
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.categoryId, categoryId), eq(waitlistEntries.status, 'aguardando')))
    .orderBy(asc(waitlistEntries.id))
    .limit(n);
}

/** Entries whose accepted offer's place moved to this charge. */
export async function acceptedByCharge(tx: Tx, chargeId: number): Promise<WaitlistEntryRow[]> {
  return tx
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.chargeId, chargeId), eq(waitlistEntries.status, 'aceita')))
    .for('update');
}

/** Categories the periodic sweep looks at: someone waiting, or an offer outstanding. */
export async function categoriesToSweep(db: Conn): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: waitlistEntries.categoryId })
    .from(waitlistEntries)
    .where(or(eq(waitlistEntries.status, 'aguardando'), eq(waitlistEntries.status, 'oferta')));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Every entry of an event's categories, in line order, for the back office. */
export async function entriesOfEvent(db: Conn, eventId: number): Promise<WaitlistEntryRow[]> {
  return db
    .select()
    .from(waitlistEntries)
    .where(eq(waitlistEntries.eventId, eventId))
    .orderBy(asc(waitlistEntries.categoryId), asc(waitlistEntries.id));
}

export async function addHistory(tx: Tx, entryId: number, kind: HistoryKind, at: Date): Promise<void> {
  await tx.insert(waitlistHistory).values({ entryId, kind, at });
}

export async function historyOf(db: Conn, entryIds: number[]): Promise<WaitlistHistoryRow[]> {
  if (entryIds.length === 0) return [];
  return db
    .select()
    .from(waitlistHistory)
    .where(inArray(waitlistHistory.entryId, entryIds))
    .orderBy(asc(waitlistHistory.id));
}

/** The event's categories with their places left, in race-day order. */
export async function categoriesOfEvent(
  db: Conn,
  eventId: number,
): Promise<Array<{ id: number; name: string; placesLeft: number }>> {
  return db
    .select({ id: eventCategories.id, name: eventCategories.name, placesLeft: eventCategories.placesLeft })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(eq(eventDays.eventId, eventId))
    .orderBy(asc(eventDays.date), asc(eventCategories.id));
}
