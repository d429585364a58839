import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { eventCategories, eventDays, events } from '../../db/schema/index.ts';

export type EventRow = typeof events.$inferSelect;

export interface DayRow {
  id: number;
  eventId: number;
  date: string;
  categories: Array<typeof eventCategories.$inferSelect>;
}

type Reader = Db | Tx;

const byStart = [asc(events.startDate), asc(events.id)] as const;

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
