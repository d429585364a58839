import { addDays, dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { PainelEvent } from '@passada/core/contracts/painel';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { categoryLots, eventCategories, eventDays, eventKitSizes, events } from '../../db/schema/index.ts';
import { eventPoster } from '../../modules/events/event-poster.ts';
import { notifyEventsChanged } from '../../modules/events/events.service.ts';

export interface MakeEventOverrides {
  name?: string;
  city?: string;
  state?: string;
  /** First race day; default 30 days after `today`. */
  startDate?: string;
  /** Last day registration is open; default 3 days before the start. */
  registrationDeadline?: string;
  /** One list of categories per consecutive race day; default one day with "5 km" and "10 km". */
  days?: Array<
    Array<{
      name?: string;
      priceCents?: number;
      placesLeft?: number;
      /** Age limits on the race day; default none. */
      minAge?: number;
      maxAge?: number;
      lots?: Array<{ name: string; priceCents: number; untilDate?: string; untilCount?: number }>;
    }>
  >;
  /** Shirt sizes of the kit and how many of each; default none (no size asked). */
  kitSizes?: Array<{ size: string; left: number }>;
  offersPcd?: boolean;
  /** The day the defaults count from; default today in Fortaleza. */
  today?: string;
}

export interface MadeEvent {
  id: number;
  startDate: string;
  endDate: string;
  registrationDeadline: string;
  imageUrl: string;
  kitSizes?: Array<{ id: number; size: string; left: number }>;
  days: Array<{
    id: number;
    date: string;
    categories: Array<{ id: number; priceCents: number; placesLeft: number }>;
  }>;
}

/** One event with days and categories, for tests; any field can be overridden. */
export async function makeEvent(db: Db, overrides: MakeEventOverrides = {}): Promise<MadeEvent> {
  const today = overrides.today ?? dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const name = overrides.name ?? 'Corrida de Teste';
  const city = overrides.city ?? 'Fortaleza';
  const state = overrides.state ?? 'CE';
  const startDate = overrides.startDate ?? addDays(today, 30);
  const dayCats = overrides.days ?? [
    [
      { name: '5 km', priceCents: 8990 },
      { name: '10 km', priceCents: 10990 },
    ],
  ];
  const endDate = addDays(startDate, Math.max(0, dayCats.length - 1));
  const registrationDeadline = overrides.registrationDeadline ?? addDays(startDate, -3);
  const imageUrl = eventPoster({ name, city, state, startDate, endDate }).url;
  const [event] = await db
    .insert(events)
    .values({
      name,
      organizer: 'Organização de Teste',
      imageUrl,
      city,
      state,
      startDate,
      endDate,
      registrationDeadline,
      time: '06:00',
      description: 'Evento criado pelo teste.',
      regulation: '1. PERCURSO\n\nPercurso de teste.',
      kitPickupPlace: 'Ginásio de Teste',
      kitPickupHours: '04/12 (sex), 10h às 20h',
      offersPcd: overrides.offersPcd ?? false,
    })
    .returning({ id: events.id });
  if (!event) throw new Error('evento não inserido');
  const days: MadeEvent['days'] = [];
  for (const [i, cats] of dayCats.entries()) {
    const date = addDays(startDate, i);
    const [day] = await db
      .insert(eventDays)
      .values({ eventId: event.id, date })
      .returning({ id: eventDays.id });
    if (!day) throw new Error('dia não inserido');
    const categories = [];
    for (const [j, c] of cats.entries()) {
      const [row] = await db
        .insert(eventCategories)
        .values({
          dayId: day.id,
          name: c.name ?? `Categoria ${j + 1}`,
          priceCents: c.priceCents ?? 8990,
          placesLeft: c.placesLeft ?? 100,
          minAge: c.minAge ?? null,
          maxAge: c.maxAge ?? null,
        })
        .returning();
      if (!row) throw new Error('categoria não inserida');
      for (const [position, lot] of (c.lots ?? []).entries())
        await db.insert(categoryLots).values({
          categoryId: row.id,
          position,
          name: lot.name,
          priceCents: lot.priceCents,
          untilDate: lot.untilDate ?? null,
          untilCount: lot.untilCount ?? null,
        });
      categories.push({ id: row.id, priceCents: row.priceCents, placesLeft: row.placesLeft });
    }
    days.push({ id: day.id, date, categories });
  }
  const kitSizes = [];
  for (const [position, k] of (overrides.kitSizes ?? []).entries()) {
    const [row] = await db
      .insert(eventKitSizes)
      .values({ eventId: event.id, size: k.size, left: k.left, position })
      .returning();
    if (!row) throw new Error('tamanho não inserido');
    kitSizes.push({ id: row.id, size: row.size, left: row.left });
  }
  // As every write to events does, so no kept answer (lists, pages) misses the new event.
  await notifyEventsChanged(db);
  return { id: event.id, startDate, endDate, registrationDeadline, imageUrl, kitSizes, days };
}

/** What the back office's form sends for an event it read: the fields it edits and the version, without the read-only counts. */
export function eventFormBody(e: PainelEvent) {
  const { id: _id, ...rest } = e;
  return {
    ...rest,
    kit_tamanhos: e.kit_tamanhos.map(({ id, tamanho, capacidade }) => ({ id, tamanho, capacidade })),
    dias_evento: e.dias_evento.map((d) => ({
      data: d.data,
      categorias: d.categorias.map(({ vendidas: _v, restantes: _r, ...c }) => c),
    })),
  };
}

/** Places left in a category, as stored now. */
export async function placesLeft(db: Db, categoryId: number): Promise<number> {
  return (await db.select().from(eventCategories).where(eq(eventCategories.id, categoryId)))[0]!.placesLeft;
}

/** Shirts left of a kit size, as stored now. */
export async function kitLeft(db: Db, kitSizeId: number): Promise<number> {
  return (await db.select().from(eventKitSizes).where(eq(eventKitSizes.id, kitSizeId)))[0]!.left;
}
