import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventDays,
  eventOpenings,
  lotteryEntries,
  openingArrivals,
  openingLotteries,
} from '../../db/schema/index.ts';

export type OpeningRow = typeof eventOpenings.$inferSelect;
type Reader = Db | Tx;

/** The channel a change of an opening's settings notifies; every process reads the rows again. */
export const OPENING_CHANGED = 'opening_changed';

export async function notifyOpeningChanged(db: Reader): Promise<void> {
  await db.execute(sql`select pg_notify(${OPENING_CHANGED}, '')`);
}

/** Every opening (one small row per event that has one). */
export function listOpenings(db: Reader): Promise<OpeningRow[]> {
  return db.select().from(eventOpenings);
}

export async function findOpening(db: Reader, eventId: number): Promise<OpeningRow | undefined> {
  const [row] = await db.select().from(eventOpenings).where(eq(eventOpenings.eventId, eventId));
  return row;
}

/** Locks the event's opening row until the transaction ends (a save reads, checks and writes it). */
export async function lockOpening(tx: Tx, eventId: number): Promise<OpeningRow | undefined> {
  const [row] = await tx.select().from(eventOpenings).where(eq(eventOpenings.eventId, eventId)).for('update');
  return row;
}

export type OpeningValues = Omit<
  typeof eventOpenings.$inferInsert,
  'eventId' | 'arrivals' | 'preQueueSize' | 'version' | 'secret'
>;

export async function insertOpening(tx: Tx, eventId: number, secret: string, values: OpeningValues) {
  await tx.insert(eventOpenings).values({ eventId, secret, ...values });
}

export async function updateOpening(tx: Tx, eventId: number, values: OpeningValues) {
  await tx
    .update(eventOpenings)
    .set({ ...values, version: sql`${eventOpenings.version} + 1` })
    .where(eq(eventOpenings.eventId, eventId));
}

/** An account's arrival in a waiting room: its number and when it joined. */
export interface Arrival {
  number: number;
  joinedAt: Date;
}

/** The arrival of this account in the event's waiting room, if it joined. */
export async function findArrival(db: Reader, eventId: number, userId: number): Promise<Arrival | undefined> {
  const [row] = await db
    .select({ number: openingArrivals.number, joinedAt: openingArrivals.joinedAt })
    .from(openingArrivals)
    .where(and(eq(openingArrivals.eventId, eventId), eq(openingArrivals.userId, userId)));
  return row;
}

/** One join waiting to be written: the account and the instant the process received it. */
export interface PendingJoin {
  userId: number;
  at: Date;
}

/**
 * Writes a batch of joins of one event (docs/decisions/0054): under the opening row's lock, accounts
 * that already joined (another tab, another device, another process) get their number back, and the
 * others get the next numbers in the order received, from one counter update and one insert. The
 * batch is all before the opening or all at or after it (`now`, the instant the SQL compares): the
 * first batch at or after the opening freezes the pre-queue's size (arrivals before it). Numbers stay
 * dense: a failure rolls back the counter with the arrivals. `row` is the opening after the batch,
 * undefined when nobody new joined; null when the event has no opening.
 */
export async function joinMany(
  tx: Tx,
  eventId: number,
  joins: readonly PendingJoin[],
  now: Date,
): Promise<{ numbers: Map<number, Arrival>; row: OpeningRow | undefined } | null> {
  const [locked] = await tx
    .select({ eventId: eventOpenings.eventId })
    .from(eventOpenings)
    .where(eq(eventOpenings.eventId, eventId))
    .for('update');
  if (!locked) return null;
  const users = [...new Set(joins.map((j) => j.userId))];
  const numbers = new Map<number, Arrival>();
  // Read after the lock: a batch of another process that held it is committed and seen here.
  const known = await tx
    .select({
      userId: openingArrivals.userId,
      number: openingArrivals.number,
      joinedAt: openingArrivals.joinedAt,
    })
    .from(openingArrivals)
    .where(and(eq(openingArrivals.eventId, eventId), inArray(openingArrivals.userId, users)));
  for (const k of known) numbers.set(k.userId, { number: k.number, joinedAt: k.joinedAt });
  const fresh: PendingJoin[] = [];
  const seen = new Set(numbers.keys());
  for (const j of joins) {
    if (seen.has(j.userId)) continue;
    seen.add(j.userId);
    fresh.push(j);
  }
  if (fresh.length === 0) return { numbers, row: undefined };
  const [row] = await tx
    .update(eventOpenings)
    .set({
      arrivals: sql`${eventOpenings.arrivals} + ${fresh.length}`,
      preQueueSize: sql`case when ${eventOpenings.opensAt} <= ${now} then coalesce(${eventOpenings.preQueueSize}, ${eventOpenings.arrivals}) else ${eventOpenings.preQueueSize} end`,
    })
    .where(eq(eventOpenings.eventId, eventId))
    .returning();
  const first = row!.arrivals - fresh.length + 1;
  await tx
    .insert(openingArrivals)
    .values(fresh.map((j, i) => ({ eventId, userId: j.userId, number: first + i, joinedAt: j.at })));
  for (const [i, j] of fresh.entries()) numbers.set(j.userId, { number: first + i, joinedAt: j.at });
  return { numbers, row };
}

/** Freezes the pre-queue of openings whose instant has passed with no arrival since (a timer's tick). */
export async function freezePreQueues(db: Reader, now: Date): Promise<number> {
  const rows = await db
    .update(eventOpenings)
    .set({ preQueueSize: eventOpenings.arrivals })
    .where(and(isNull(eventOpenings.preQueueSize), sql`${eventOpenings.opensAt} <= ${now}`))
    .returning({ eventId: eventOpenings.eventId });
  return rows.length;
}

/**
 * Serialises the opening's limits of one buyer and one CPF of the event until the transaction ends:
 * two payments counting the same account's or the same CPF's registrations wait for each other, so the
 * second sees the first's charge. Transaction-scoped advisory locks, always the buyer's first and then
 * the CPF's (every participant of a cart has the same buyer, so carts of one account never cross).
 */
export async function lockLimits(
  tx: Tx,
  eventId: number,
  who: { userId: number; cpf: string },
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`opening-buyer:${eventId}:${who.userId}`}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`opening-cpf:${eventId}:${who.cpf}`}))`);
}

/** Places left in all the event's categories. */
export async function placesLeft(db: Reader, eventId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${eventCategories.placesLeft}), 0)::int` })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(eq(eventDays.eventId, eventId));
  return Number(row?.n ?? 0);
}

/** Places left in each of the event's categories (the counters, before what is held for someone). */
export async function placesLeftPerCategory(db: Reader, eventId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ id: eventCategories.id, left: eventCategories.placesLeft })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(eq(eventDays.eventId, eventId));
  return new Map(rows.map((r) => [r.id, r.left]));
}

/**
 * Removes the event's opening (its lottery's settings and its waiting room's arrivals with it): the
 * event opens as usual again.
 */
export async function deleteOpening(tx: Tx, eventId: number): Promise<boolean> {
  await tx.delete(openingLotteries).where(eq(openingLotteries.eventId, eventId));
  await tx.delete(openingArrivals).where(eq(openingArrivals.eventId, eventId));
  const rows = await tx
    .delete(eventOpenings)
    .where(eq(eventOpenings.eventId, eventId))
    .returning({ eventId: eventOpenings.eventId });
  return rows.length > 0;
}

/** Whether anyone entered the event's lottery. */
export async function hasEntries(db: Reader, eventId: number): Promise<boolean> {
  const entry = await db
    .select({ id: lotteryEntries.id })
    .from(lotteryEntries)
    .where(eq(lotteryEntries.eventId, eventId))
    .limit(1);
  return entry.length > 0;
}
