import { toSearchText } from '@passada/core/text';
import { and, asc, eq, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventCategoryWaves,
  eventDays,
  events,
  registrationCategories,
  registrations,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñ';
const PLAIN = 'aaaaaeeeeiiiiooooouuuucn';

/** What the back office's participants lists filter by (all optional, all together). */
export interface ParticipantFilters {
  categoryId?: number;
  /** aaaa-mm-dd: only people in a category of that day. */
  day?: string;
  /** Part of the name (any case) or of the CPF's digits, the registration's number or a bib. */
  search?: string;
  ids?: number[];
  /** Only what this charge paid for. */
  chargeId?: number;
}

/** The registrations the filters find (of one event, or of any), each with its event's first day. */
export function findParticipants(db: Conn, eventId: number | null, filters: ParticipantFilters) {
  const where: SQL[] = [];
  if (eventId !== null) where.push(eq(registrations.eventId, eventId));
  if (filters.chargeId !== undefined) where.push(eq(registrations.chargeId, filters.chargeId));
  if (filters.ids) where.push(inArray(registrations.id, filters.ids.length ? filters.ids : [0]));
  const search = filters.search?.trim();
  if (search) {
    const digits = search.replace(/\D/g, '');
    // Accent- and case-insensitive, as people type names at a busy check-in desk.
    const pattern = `%${toSearchText(search).replace(/[\\%_]/g, '\\$&')}%`;
    const byName = like(sql`translate(lower(${registrations.fullName}), ${ACCENTED}, ${PLAIN})`, pattern);
    // Digits alone may also be the registration's number, as printed on its e-mail and lookup page,
    // or a bib (número de peito) of one of its races, as the runner says it at the kit desk.
    const number = /^\d{1,9}$/.test(search) ? Number(search) : undefined;
    const byNumber = number !== undefined ? eq(registrations.id, number) : undefined;
    const byBib =
      number !== undefined
        ? sql`exists (${db
            .select({ one: sql`1` })
            .from(registrationCategories)
            .where(
              and(
                eq(registrationCategories.registrationId, registrations.id),
                eq(registrationCategories.bib, number),
              ),
            )})`
        : undefined;
    const byCpf = digits.length >= 3 ? like(registrations.cpf, `%${digits}%`) : undefined;
    where.push(or(byName, byCpf, byNumber, byBib)!);
  }
  if (filters.categoryId !== undefined || filters.day !== undefined) {
    const inner: SQL[] = [eq(registrationCategories.registrationId, registrations.id)];
    if (filters.categoryId !== undefined)
      inner.push(eq(registrationCategories.categoryId, filters.categoryId));
    if (filters.day !== undefined) inner.push(eq(eventDays.date, filters.day));
    where.push(
      sql`exists (${db
        .select({ one: sql`1` })
        .from(registrationCategories)
        .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
        .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
        .where(and(...inner))})`,
    );
  }
  return db
    .select({ r: registrations, eventStart: events.startDate })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(where.length ? and(...where) : undefined);
}

/** The races of these registrations, by day and category, with the bib staff gave each (or null). */
export function categoriesOfRegistrations(db: Conn, registrationIds: number[]) {
  return db
    .select({
      registrationId: registrationCategories.registrationId,
      id: eventCategories.id,
      name: eventCategories.name,
      day: eventDays.date,
      bib: registrationCategories.bib,
      wave: eventCategoryWaves.name,
      estimatedSeconds: registrationCategories.estimatedSeconds,
    })
    .from(registrationCategories)
    .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .leftJoin(eventCategoryWaves, eq(eventCategoryWaves.id, registrationCategories.waveId))
    .where(inArray(registrationCategories.registrationId, registrationIds))
    .orderBy(asc(eventDays.date), asc(eventCategories.id));
}
