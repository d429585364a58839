import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import {
  categoryLots,
  eventCategories,
  eventDays,
  eventKitSizes,
  events,
  kitReservations,
  placeReservations,
} from '../../db/schema/index.ts';

export type EventRow = typeof events.$inferSelect;

export interface DayRow {
  id: number;
  eventId: number;
  date: string;
  categories: Array<typeof eventCategories.$inferSelect>;
}

type Reader = Db | Tx;

const byStart = [asc(events.startDate), asc(events.id)] as const;

/** The channel every write to events, their categories, places and kits notifies (the page cache listens). */
export const EVENTS_CHANGED = 'events_changed';

/**
 * Tells every process an event changed; PostgreSQL delivers it when the caller's transaction
 * commits (never when it rolls back), so pages showing the event are drawn again from then on.
 */
export async function notifyEventsChanged(db: Reader): Promise<void> {
  await db.execute(sql`select pg_notify(${EVENTS_CHANGED}, '')`);
}

export async function listEvents(db: Reader, page?: { limit: number; offset: number }): Promise<EventRow[]> {
  const query = db
    .select()
    .from(events)
    .orderBy(...byStart);
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function countEvents(db: Reader): Promise<number> {
  const [row] = await db.select({ n: count() }).from(events);
  return row?.n ?? 0;
}

export async function findEvent(db: Reader, id: number): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.id, id));
  return row;
}

export async function findEventByImageUrl(db: Reader, url: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.imageUrl, url)).limit(1);
  return row;
}

/** The days of the given events with their categories, days by date and categories by id. */
export async function listDays(db: Reader, eventIds: number[]): Promise<DayRow[]> {
  if (eventIds.length === 0) return [];
  const rows = await db
    .select({ day: eventDays, category: eventCategories })
    .from(eventDays)
    .leftJoin(eventCategories, eq(eventCategories.dayId, eventDays.id))
    .where(inArray(eventDays.eventId, eventIds))
    .orderBy(asc(eventDays.date), asc(eventDays.id), asc(eventCategories.id));
  const days = new Map<number, DayRow>();
  for (const { day, category } of rows) {
    let entry = days.get(day.id);
    if (!entry) {
      entry = { id: day.id, eventId: day.eventId, date: day.date, categories: [] };
      days.set(day.id, entry);
    }
    if (category) entry.categories.push(category);
  }
  return [...days.values()];
}

export interface CategoryInfo {
  id: number;
  name: string;
  priceCents: number;
  placesLeft: number;
  minAge: number | null;
  maxAge: number | null;
  relayLegs: number | null;
  eventId: number;
  dayId: number;
  date: string;
}

const categoryInfo = (db: Reader) =>
  db
    .select({
      id: eventCategories.id,
      name: eventCategories.name,
      priceCents: eventCategories.priceCents,
      placesLeft: eventCategories.placesLeft,
      minAge: eventCategories.minAge,
      maxAge: eventCategories.maxAge,
      relayLegs: eventCategories.relayLegs,
      eventId: eventDays.eventId,
      dayId: eventDays.id,
      date: eventDays.date,
    })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId));

/** The given categories with their day and event (categories of any event: the caller checks). */
export async function findCategories(db: Reader, ids: number[]): Promise<CategoryInfo[]> {
  if (ids.length === 0) return [];
  return categoryInfo(db)
    .where(inArray(eventCategories.id, ids))
    .orderBy(asc(eventDays.date), asc(eventCategories.id));
}

/** Every category of the event with its day, by day and then by id. */
export async function listEventCategories(db: Reader, eventId: number): Promise<CategoryInfo[]> {
  return categoryInfo(db)
    .where(eq(eventDays.eventId, eventId))
    .orderBy(asc(eventDays.date), asc(eventCategories.id));
}

/** The events that start on the day (aaaa-mm-dd). */
export async function eventIdsStartingOn(db: Reader, date: string): Promise<number[]> {
  const rows = await db.select({ id: events.id }).from(events).where(eq(events.startDate, date));
  return rows.map((r) => r.id);
}

/** Takes one place atomically; false when none is left. */
export async function takePlace(tx: Tx, categoryId: number): Promise<boolean> {
  const rows = await tx
    .update(eventCategories)
    .set({ placesLeft: sql`${eventCategories.placesLeft} - 1` })
    .where(and(eq(eventCategories.id, categoryId), gt(eventCategories.placesLeft, 0)))
    .returning({ id: eventCategories.id });
  if (rows.length === 1) await notifyEventsChanged(tx);
  return rows.length === 1;
}

export async function insertReservation(
  tx: Tx,
  chargeId: number,
  categoryId: number,
  priceRuleId: number | null = null,
  teamQuotaId: number | null = null,
): Promise<void> {
  await tx.insert(placeReservations).values({ chargeId, categoryId, priceRuleId, teamQuotaId });
}

/** Marks the charge's held places released (only those not yet released) and gives them back. */
export async function releaseReservations(tx: Tx, chargeId: number, now: Date): Promise<number> {
  const released = await tx
    .update(placeReservations)
    .set({ releasedAt: now })
    .where(and(eq(placeReservations.chargeId, chargeId), isNull(placeReservations.releasedAt)))
    .returning({ categoryId: placeReservations.categoryId });
  for (const { categoryId } of released) {
    await tx
      .update(eventCategories)
      .set({ placesLeft: sql`${eventCategories.placesLeft} + 1` })
      .where(eq(eventCategories.id, categoryId));
  }
  if (released.length) await notifyEventsChanged(tx);
  return released.length;
}

export type KitSizeRow = typeof eventKitSizes.$inferSelect;
export type LotRow = typeof categoryLots.$inferSelect;

/** The kit sizes of the given events, in their order. */
export async function listKitSizes(db: Reader, eventIds: number[]): Promise<KitSizeRow[]> {
  if (eventIds.length === 0) return [];
  return db
    .select()
    .from(eventKitSizes)
    .where(inArray(eventKitSizes.eventId, eventIds))
    .orderBy(asc(eventKitSizes.position), asc(eventKitSizes.id));
}

/** The lots of the given categories, in order. */
export async function listLots(db: Reader, categoryIds: number[]): Promise<LotRow[]> {
  if (categoryIds.length === 0) return [];
  return db
    .select()
    .from(categoryLots)
    .where(inArray(categoryLots.categoryId, categoryIds))
    .orderBy(asc(categoryLots.categoryId), asc(categoryLots.position), asc(categoryLots.id));
}

/** Places sold per category: held by a charge and not given back (paid ones stay held). */
export async function countSold(db: Reader, categoryIds: number[]): Promise<Map<number, number>> {
  if (categoryIds.length === 0) return new Map();
  const rows = await db
    .select({ categoryId: placeReservations.categoryId, n: count() })
    .from(placeReservations)
    .where(and(inArray(placeReservations.categoryId, categoryIds), isNull(placeReservations.releasedAt)))
    .groupBy(placeReservations.categoryId);
  return new Map(rows.map((r) => [r.categoryId, r.n]));
}

/** Shirts sold per kit size: held by a charge and not given back, as countSold counts places. */
export async function countSoldKits(db: Reader, kitSizeIds: number[]): Promise<Map<number, number>> {
  if (kitSizeIds.length === 0) return new Map();
  const rows = await db
    .select({ kitSizeId: kitReservations.kitSizeId, n: count() })
    .from(kitReservations)
    .where(and(inArray(kitReservations.kitSizeId, kitSizeIds), isNull(kitReservations.releasedAt)))
    .groupBy(kitReservations.kitSizeId);
  return new Map(rows.map((r) => [r.kitSizeId, r.n]));
}

export interface Occupancy {
  left: number;
  sold: number;
}

/**
 * A stock sold by reservation: the rows whose `left` counts what remains (categories' places, kit
 * sizes' shirts) and the reservations held against them until released.
 */
interface Stock {
  table: PgTable;
  id: AnyPgColumn;
  left: AnyPgColumn;
  reservations: PgTable;
  reservationId: AnyPgColumn;
  reservedRow: AnyPgColumn;
  releasedAt: AnyPgColumn;
}

const places: Stock = {
  table: eventCategories,
  id: eventCategories.id,
  left: eventCategories.placesLeft,
  reservations: placeReservations,
  reservationId: placeReservations.id,
  reservedRow: placeReservations.categoryId,
  releasedAt: placeReservations.releasedAt,
};

const shirts: Stock = {
  table: eventKitSizes,
  id: eventKitSizes.id,
  left: eventKitSizes.left,
  reservations: kitReservations,
  reservationId: kitReservations.id,
  reservedRow: kitReservations.kitSizeId,
  releasedAt: kitReservations.releasedAt,
};

/** Left and sold (unreleased reservations) per row of the stock, read in ONE statement so the two agree. */
async function occupancy(db: Reader, stock: Stock, ids: number[]): Promise<Map<number, Occupancy>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: sql<number>`${stock.id}`,
      left: sql<number>`${stock.left}`,
      sold: sql<number>`count(${stock.reservationId})::int`,
    })
    .from(stock.table)
    .leftJoin(stock.reservations, and(eq(stock.reservedRow, stock.id), isNull(stock.releasedAt)))
    .where(inArray(stock.id, ids))
    .groupBy(stock.id);
  return new Map(rows.map((r) => [r.id, { left: r.left, sold: Number(r.sold) }]));
}

/** Locks the stock's rows in id order (the order sales take them in) until the transaction ends. */
async function lockInIdOrder(
  tx: Tx,
  stock: Stock,
  ids: number[],
  strength: 'update' | 'no key update',
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .select({ id: stock.id })
    .from(stock.table)
    .where(inArray(stock.id, ids))
    .orderBy(asc(stock.id))
    .for(strength);
}

/**
 * Places left and sold (held, as countSold counts them) per category, read in ONE statement so the
 * two agree: left + sold is the category's capacity even while sales run.
 */
export async function categoryOccupancy(db: Reader, ids: number[]): Promise<Map<number, Occupancy>> {
  return occupancy(db, places, ids);
}

/** The same for kit sizes: shirts left and sold, in one statement. */
export async function kitOccupancy(db: Reader, ids: number[]): Promise<Map<number, Occupancy>> {
  return occupancy(db, shirts, ids);
}

/**
 * Locks categories a staff edit writes, in id order, until the transaction ends: a sale taking a place
 * waits, and one that took it before has committed its reservation by the time the lock is granted.
 * NO KEY UPDATE, like the sale's own UPDATE, so inserting a reservation (a key share) never waits on it.
 */
export async function lockCategoriesForEdit(tx: Tx, ids: number[]): Promise<void> {
  await lockInIdOrder(tx, places, ids, 'no key update');
}

/** The same for kit sizes. */
export async function lockKitSizesForEdit(tx: Tx, ids: number[]): Promise<void> {
  await lockInIdOrder(tx, shirts, ids, 'no key update');
}

/**
 * Locks the categories' rows until the transaction ends, so two charges cannot both be priced by a
 * lot that has one place left before its count runs out.
 */
export async function lockCategories(tx: Tx, ids: number[]): Promise<void> {
  await lockInIdOrder(tx, places, ids, 'update');
}

/** Takes one shirt of the size atomically; false when none is left. */
export async function takeKit(tx: Tx, kitSizeId: number): Promise<boolean> {
  const rows = await tx
    .update(eventKitSizes)
    .set({ left: sql`${eventKitSizes.left} - 1` })
    .where(and(eq(eventKitSizes.id, kitSizeId), gt(eventKitSizes.left, 0)))
    .returning({ id: eventKitSizes.id });
  if (rows.length === 1) await notifyEventsChanged(tx);
  return rows.length === 1;
}

export async function insertKitReservation(tx: Tx, chargeId: number, kitSizeId: number): Promise<void> {
  await tx.insert(kitReservations).values({ chargeId, kitSizeId });
}

/** Marks the charge's held shirts released (only those not yet released) and gives them back. */
export async function releaseKitReservations(tx: Tx, chargeId: number, now: Date): Promise<number> {
  const released = await tx
    .update(kitReservations)
    .set({ releasedAt: now })
    .where(and(eq(kitReservations.chargeId, chargeId), isNull(kitReservations.releasedAt)))
    .returning({ kitSizeId: kitReservations.kitSizeId });
  for (const { kitSizeId } of released) {
    await tx
      .update(eventKitSizes)
      .set({ left: sql`${eventKitSizes.left} + 1` })
      .where(eq(eventKitSizes.id, kitSizeId));
  }
  if (released.length) await notifyEventsChanged(tx);
  return released.length;
}

/** Closes (true) or reopens an event's registrations by hand; false when there is no such event. */
export async function setRegistrationsClosed(
  tx: Tx,
  id: number,
  closed: boolean,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(events)
    .set({ registrationsClosed: closed, updatedAt: now })
    .where(eq(events.id, id))
    .returning({ id: events.id });
  if (rows.length) await notifyEventsChanged(tx);
  return rows.length === 1;
}

/** The places of a category a charge still holds. */
const heldBy = (chargeId: number, categoryId: number) =>
  and(
    eq(placeReservations.chargeId, chargeId),
    eq(placeReservations.categoryId, categoryId),
    isNull(placeReservations.releasedAt),
  );

/** One place of a category the charge holds, locked; undefined when it holds none. */
async function lockOneHeld(tx: Tx, chargeId: number, categoryId: number) {
  const [held] = await tx
    .select({ id: placeReservations.id })
    .from(placeReservations)
    .where(heldBy(chargeId, categoryId))
    .limit(1)
    .for('update');
  return held;
}

/**
 * One place of a category held by `fromChargeId` handed to `toChargeId` without going back to sale
 * (a team's prepaid place claimed by a member, or given back to the team, docs/decisions/0073): the
 * category's count does not move, so nobody else can take it in between. False when none is held.
 */
export async function moveOneReservation(
  tx: Tx,
  fromChargeId: number,
  toChargeId: number,
  categoryId: number,
): Promise<boolean> {
  const held = await lockOneHeld(tx, fromChargeId, categoryId);
  if (!held) return false;
  await tx.update(placeReservations).set({ chargeId: toChargeId }).where(eq(placeReservations.id, held.id));
  return true;
}

/** How many places of a category a charge holds now. */
export async function heldPlaces(db: Db | Tx, chargeId: number, categoryId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(placeReservations)
    .where(heldBy(chargeId, categoryId));
  return row?.n ?? 0;
}

/**
 * Gives back one place of `categoryId` the charge holds (a runner changing distance,
 * docs/decisions/0041); false when the charge holds none there.
 */
export async function releaseOneReservation(
  tx: Tx,
  chargeId: number,
  categoryId: number,
  now: Date,
): Promise<boolean> {
  const held = await lockOneHeld(tx, chargeId, categoryId);
  if (!held) return false;
  await tx.update(placeReservations).set({ releasedAt: now }).where(eq(placeReservations.id, held.id));
  await tx
    .update(eventCategories)
    .set({ placesLeft: sql`${eventCategories.placesLeft} + 1` })
    .where(eq(eventCategories.id, categoryId));
  await notifyEventsChanged(tx);
  return true;
}

/** Gives back one shirt of `kitSizeId` the charge holds; false when it holds none of that size. */
export async function releaseOneKitReservation(
  tx: Tx,
  chargeId: number,
  kitSizeId: number,
  now: Date,
): Promise<boolean> {
  const [held] = await tx
    .select({ id: kitReservations.id })
    .from(kitReservations)
    .where(
      and(
        eq(kitReservations.chargeId, chargeId),
        eq(kitReservations.kitSizeId, kitSizeId),
        isNull(kitReservations.releasedAt),
      ),
    )
    .limit(1)
    .for('update');
  if (!held) return false;
  await tx.update(kitReservations).set({ releasedAt: now }).where(eq(kitReservations.id, held.id));
  await tx
    .update(eventKitSizes)
    .set({ left: sql`${eventKitSizes.left} + 1` })
    .where(eq(eventKitSizes.id, kitSizeId));
  await notifyEventsChanged(tx);
  return true;
}

/** The places and shirts a paid charge held move to another charge (a change paid apart). */
export async function moveReservations(tx: Tx, fromChargeId: number, toChargeId: number): Promise<void> {
  await tx
    .update(placeReservations)
    .set({ chargeId: toChargeId })
    .where(and(eq(placeReservations.chargeId, fromChargeId), isNull(placeReservations.releasedAt)));
  await tx
    .update(kitReservations)
    .set({ chargeId: toChargeId })
    .where(and(eq(kitReservations.chargeId, fromChargeId), isNull(kitReservations.releasedAt)));
}
