import type { CertificateLayout, TimerColumns } from '@passada/core/contracts/results';
import { toSearchText } from '@passada/core/text';
import { and, asc, count, desc, eq, inArray, isNotNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  eventCertificateDesigns,
  eventDays,
  eventResultLinks,
  eventResults,
  events,
  type ImportedLine,
  registrationCategories,
  registrations,
  resultImports,
  resultTimers,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** The SQL of results (docs/decisions/0064); it reads the registrations' bibs and names, never writes them. */

/**
 * The channel a publication notifies, and a change to a name, team or gender a published result shows
 * (a trigger on registrations, migration 0051): every process's cached results answers and pages listen.
 */
export const RESULTS_CHANGED = 'results_changed';

/** Tells every process the event's results changed; PostgreSQL delivers it when the transaction commits. */
export async function notifyResultsChanged(db: Conn, eventId: number): Promise<void> {
  await db.execute(sql`select pg_notify(${RESULTS_CHANGED}, ${String(eventId)})`);
}

export type TimerRow = typeof resultTimers.$inferSelect;

export function listTimers(db: Conn) {
  return db.select().from(resultTimers).orderBy(asc(resultTimers.name));
}

export async function findTimer(db: Conn, id: number) {
  const [row] = await db.select().from(resultTimers).where(eq(resultTimers.id, id));
  return row;
}

export async function findTimerByName(db: Conn, name: string) {
  const [row] = await db.select().from(resultTimers).where(sql`lower(${resultTimers.name}) = lower(${name})`);
  return row;
}

export async function insertTimer(db: Conn, name: string, columns: TimerColumns) {
  const [row] = await db.insert(resultTimers).values({ name, columns }).returning();
  return row!;
}

export async function updateTimer(db: Conn, id: number, name: string, columns: TimerColumns, at: Date) {
  const [row] = await db
    .update(resultTimers)
    .set({ name, columns, updatedAt: at })
    .where(eq(resultTimers.id, id))
    .returning();
  return row;
}

export async function insertImport(
  db: Conn,
  values: {
    eventId: number;
    timerId: number;
    day: string | null;
    fileName: string;
    lines: ImportedLine[];
    at: Date;
  },
) {
  const [row] = await db
    .insert(resultImports)
    .values({
      eventId: values.eventId,
      timerId: values.timerId,
      day: values.day,
      fileName: values.fileName,
      lines: values.lines,
      createdAt: values.at,
    })
    .returning();
  return row!;
}

export type ImportRow = typeof resultImports.$inferSelect;

/** An event's import, locking every import of the event so two publications of it run one after the other. */
export async function lockImport(tx: Tx, eventId: number, id: number): Promise<ImportRow | undefined> {
  const rows = await tx.select().from(resultImports).where(eq(resultImports.eventId, eventId)).for('update');
  return rows.find((r) => r.id === id);
}

export async function findImport(db: Conn, eventId: number, id: number) {
  const [row] = await db
    .select()
    .from(resultImports)
    .where(and(eq(resultImports.eventId, eventId), eq(resultImports.id, id)));
  return row;
}

/** One race entry of the event that has a bib: who, in which category and day, and whether it still stands. */
export interface BibEntry {
  entryId: number;
  bib: number;
  categoryId: number;
  day: string;
  gender: string;
  birthDate: string;
  cancelled: boolean;
}

export async function bibEntries(db: Conn, eventId: number): Promise<BibEntry[]> {
  const rows = await db
    .select({
      entryId: registrationCategories.id,
      bib: registrationCategories.bib,
      categoryId: registrationCategories.categoryId,
      day: eventDays.date,
      gender: registrations.gender,
      birthDate: registrations.birthDate,
      entryCancelled: registrationCategories.cancelledAt,
      cancelled: registrations.cancelledAt,
    })
    .from(registrationCategories)
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(and(eq(registrations.eventId, eventId), isNotNull(registrationCategories.bib)));
  return rows.map((r) => ({
    entryId: r.entryId,
    bib: r.bib!,
    categoryId: r.categoryId,
    day: r.day,
    gender: r.gender,
    birthDate: r.birthDate,
    cancelled: r.entryCancelled !== null || r.cancelled !== null,
  }));
}

export type NewResult = typeof eventResults.$inferInsert;

/**
 * Replaces the event's published results (of one day, when the file was for one) with `rows`, and marks
 * the import published and the one it replaces `substituida`. Answers how many results were replaced.
 */
export async function replaceResults(
  tx: Tx,
  imp: { id: number; eventId: number; day: string | null },
  rows: NewResult[],
  at: Date,
): Promise<Array<{ bib: number; status: string; gunMs: number | null; netMs: number | null }>> {
  const scope = and(
    eq(eventResults.eventId, imp.eventId),
    imp.day === null ? undefined : eq(eventResults.day, imp.day),
  );
  const gone = await tx.delete(eventResults).where(scope).returning({
    bib: eventResults.bib,
    status: eventResults.status,
    gunMs: eventResults.gunMs,
    netMs: eventResults.netMs,
  });
  await tx
    .update(resultImports)
    .set({ status: 'substituida' })
    .where(
      and(
        eq(resultImports.eventId, imp.eventId),
        eq(resultImports.status, 'publicada'),
        imp.day === null ? undefined : eq(resultImports.day, imp.day),
      ),
    );
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(eventResults).values(rows.slice(i, i + 1000));
  await tx
    .update(resultImports)
    .set({ status: 'publicada', publishedAt: at })
    .where(eq(resultImports.id, imp.id));
  await notifyResultsChanged(tx, imp.eventId);
  // What was there before, so the caller tells only the runners whose result is new or changed.
  return gone;
}

const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñ';
const PLAIN = 'aaaaaeeeeiiiiooooouuuucn';

export interface ResultFilters {
  search?: string;
  categoryId?: number;
  gender?: string;
  ageGroup?: string;
  bib?: number;
  bibs?: number[];
}

function whereOf(eventId: number, f: ResultFilters): SQL {
  const where: SQL[] = [eq(eventResults.eventId, eventId)];
  if (f.categoryId !== undefined) where.push(eq(eventResults.categoryId, f.categoryId));
  if (f.gender !== undefined) where.push(eq(registrations.gender, f.gender));
  if (f.ageGroup !== undefined) where.push(eq(eventResults.ageGroup, f.ageGroup));
  if (f.bib !== undefined) where.push(eq(eventResults.bib, f.bib));
  if (f.bibs !== undefined) where.push(inArray(eventResults.bib, f.bibs.length ? f.bibs : [-1]));
  const search = f.search?.trim();
  if (search) {
    const pattern = `%${toSearchText(search).replace(/[\\%_]/g, '\\$&')}%`;
    const fold = (column: SQL | typeof registrations.fullName) =>
      like(sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`, pattern);
    const byBib = /^\d{1,7}$/.test(search) ? eq(eventResults.bib, Number(search)) : undefined;
    where.push(or(fold(registrations.fullName), fold(sql`coalesce(${registrations.team}, '')`), byBib)!);
  }
  return and(...where)!;
}

const statusOrder = sql`case ${eventResults.status} when 'OK' then 0 when 'DNF' then 1 when 'DSQ' then 2 else 3 end`;

const publicColumns = {
  categoryId: eventResults.categoryId,
  category: eventCategories.name,
  day: eventResults.day,
  bib: eventResults.bib,
  name: registrations.fullName,
  team: registrations.team,
  gender: registrations.gender,
  ageGroup: eventResults.ageGroup,
  status: eventResults.status,
  gunMs: eventResults.gunMs,
  netMs: eventResults.netMs,
  placeOverall: eventResults.placeOverall,
  placeGender: eventResults.placeGender,
  placeAgeGroup: eventResults.placeAgeGroup,
};

export type PublicResult = {
  categoryId: number;
  category: string;
  day: string;
  bib: number;
  name: string;
  team: string | null;
  gender: string;
  ageGroup: string;
  status: 'OK' | 'DNF' | 'DSQ' | 'DNS';
  gunMs: number | null;
  netMs: number | null;
  placeOverall: number | null;
  placeGender: number | null;
  placeAgeGroup: number | null;
};

/** A page of an event's published results: by day and category, finishers by place, then DNF, DSQ, DNS. */
export async function resultsPage(
  db: Conn,
  eventId: number,
  filters: ResultFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: PublicResult[]; total: number }> {
  const where = whereOf(eventId, filters);
  const base = () =>
    db
      .select(publicColumns)
      .from(eventResults)
      .innerJoin(registrationCategories, eq(registrationCategories.id, eventResults.entryId))
      .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
      .innerJoin(eventCategories, eq(eventCategories.id, eventResults.categoryId));
  const rows = await base()
    .where(where)
    .orderBy(
      asc(eventResults.day),
      asc(eventResults.categoryId),
      statusOrder,
      sql`${eventResults.placeOverall} nulls last`,
      asc(eventResults.bib),
    )
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ n: count() })
    .from(eventResults)
    .innerJoin(registrationCategories, eq(registrationCategories.id, eventResults.entryId))
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .where(where);
  return { rows: rows as PublicResult[], total: total?.n ?? 0 };
}

/** The categories and age groups an event's results have, for the page's filters. */
export async function resultFilters(db: Conn, eventId: number) {
  const categories = await db
    .selectDistinct({ id: eventResults.categoryId, name: eventCategories.name, day: eventResults.day })
    .from(eventResults)
    .innerJoin(eventCategories, eq(eventCategories.id, eventResults.categoryId))
    .where(eq(eventResults.eventId, eventId))
    .orderBy(asc(eventResults.day), asc(eventResults.categoryId));
  const groups = await db
    .selectDistinct({ ageGroup: eventResults.ageGroup })
    .from(eventResults)
    .where(eq(eventResults.eventId, eventId));
  return { categories, ageGroups: groups.map((g) => g.ageGroup) };
}

/** How many finished one race: in all, of the runner's gender, of the runner's age group ("12º de 340"). */
export interface FinisherCounts {
  overall: number;
  gender: number;
  ageGroup: number;
}

/**
 * The finishers of some categories counted in SQL by gender and age group (a few dozen groups, where a
 * race holds up to 20,000 rows), and what each race's runner is counted against.
 */
export async function finisherCounts(db: Conn, eventId: number, categoryIds: number[]) {
  const groups = await db
    .select({
      categoryId: eventResults.categoryId,
      gender: registrations.gender,
      ageGroup: eventResults.ageGroup,
      n: sql<number>`count(*)::int`,
    })
    .from(eventResults)
    .innerJoin(registrationCategories, eq(registrationCategories.id, eventResults.entryId))
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .where(
      and(
        eq(eventResults.eventId, eventId),
        eq(eventResults.status, 'OK'),
        inArray(eventResults.categoryId, categoryIds.length ? categoryIds : [0]),
      ),
    )
    .groupBy(eventResults.categoryId, registrations.gender, eventResults.ageGroup);
  return (race: { categoryId: number; gender: string; ageGroup: string }): FinisherCounts => {
    const mine = groups.filter((g) => g.categoryId === race.categoryId);
    const sum = (list: typeof groups) => list.reduce((total, g) => total + g.n, 0);
    return {
      overall: sum(mine),
      gender: sum(mine.filter((g) => g.gender === race.gender)),
      ageGroup: sum(mine.filter((g) => g.ageGroup === race.ageGroup)),
    };
  };
}

/** The published results of the registrations an account made, newest race first. */
export async function resultsOfAccount(db: Conn, userId: number) {
  const rows = await db
    .select({
      ...publicColumns,
      eventId: eventResults.eventId,
      eventName: events.name,
      entryId: eventResults.entryId,
    })
    .from(eventResults)
    .innerJoin(registrationCategories, eq(registrationCategories.id, eventResults.entryId))
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .innerJoin(eventCategories, eq(eventCategories.id, eventResults.categoryId))
    .innerJoin(events, eq(events.id, eventResults.eventId))
    .where(eq(registrations.accountUserId, userId))
    .orderBy(desc(eventResults.day), asc(eventResults.bib));
  return rows as Array<PublicResult & { eventId: number; eventName: string; entryId: number }>;
}

/** The event of a race entry's published result, if it has one. */
export async function resultOfEntry(db: Conn, entryId: number) {
  const [row] = await db
    .select({ eventId: eventResults.eventId })
    .from(eventResults)
    .where(eq(eventResults.entryId, entryId));
  return row;
}

/** The event's links back to the shop (finisher shirt, next edition), or none set. */
export async function resultLinks(db: Conn, eventId: number) {
  const [row] = await db.select().from(eventResultLinks).where(eq(eventResultLinks.eventId, eventId));
  return {
    finisherProductId: row?.finisherProductId ?? null,
    nextEditionEventId: row?.nextEditionEventId ?? null,
  };
}

/** The event's certificate design, or the default one (classic, the brand's orange, unsigned) at version 1. */
export async function certificateDesign(db: Conn, eventId: number) {
  const [row] = await db
    .select()
    .from(eventCertificateDesigns)
    .where(eq(eventCertificateDesigns.eventId, eventId));
  return {
    design: {
      layout: (row?.layout ?? 'classico') as CertificateLayout,
      color: row?.color ?? DEFAULT_CERTIFICATE_COLOR,
      signatureName: row?.signatureName ?? null,
      signatureRole: row?.signatureRole ?? null,
      message: row?.message ?? null,
    },
    version: row?.version ?? 1,
  };
}

export type CertificateDesignRow = Awaited<ReturnType<typeof certificateDesign>>['design'];

/** The brand's orange, the design of an event whose staff chose none. */
export const DEFAULT_CERTIFICATE_COLOR = '#EA580C';

/** Saves the design read at `version`; null when someone saved another since (nothing written). */
export async function saveCertificateDesign(
  tx: Tx,
  eventId: number,
  design: CertificateDesignRow,
  version: number,
  at: Date,
): Promise<number | null> {
  if (version === 1) {
    const [inserted] = await tx
      .insert(eventCertificateDesigns)
      .values({ eventId, ...design, version: 2, updatedAt: at })
      .onConflictDoNothing()
      .returning({ version: eventCertificateDesigns.version });
    if (inserted) return inserted.version;
  }
  const [updated] = await tx
    .update(eventCertificateDesigns)
    .set({ ...design, version: sql`${eventCertificateDesigns.version} + 1`, updatedAt: at })
    .where(and(eq(eventCertificateDesigns.eventId, eventId), eq(eventCertificateDesigns.version, version)))
    .returning({ version: eventCertificateDesigns.version });
  return updated?.version ?? null;
}

export async function saveResultLinks(
  tx: Tx,
  eventId: number,
  links: { finisherProductId: number | null; nextEditionEventId: number | null },
  at: Date,
) {
  await tx
    .insert(eventResultLinks)
    .values({ eventId, ...links, updatedAt: at })
    .onConflictDoUpdate({ target: eventResultLinks.eventId, set: { ...links, updatedAt: at } });
  await notifyResultsChanged(tx, eventId);
}
