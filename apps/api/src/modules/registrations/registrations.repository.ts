import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  charges,
  eventCategories,
  eventDays,
  events,
  placeReservations,
  registrationCategories,
  registrations,
  users,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type RegistrationRow = typeof registrations.$inferSelect;
export type NewRegistration = typeof registrations.$inferInsert;

export interface CategoryInfo {
  id: number;
  name: string;
  priceCents: number;
  placesLeft: number;
  eventId: number;
  dayId: number;
  date: string;
}

/** The given categories with their day and event (categories of any event: the caller checks). */
export async function findCategories(db: Conn, ids: number[]): Promise<CategoryInfo[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: eventCategories.id,
      name: eventCategories.name,
      priceCents: eventCategories.priceCents,
      placesLeft: eventCategories.placesLeft,
      eventId: eventDays.eventId,
      dayId: eventDays.id,
      date: eventDays.date,
    })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(inArray(eventCategories.id, ids))
    .orderBy(asc(eventDays.date), asc(eventCategories.id));
}

/**
 * Serialises registrations of one CPF until the transaction ends, so two charges for the same person
 * and category cannot both pass the duplicate check.
 */
export async function lockCpf(tx: Tx, cpf: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`registration-cpf:${cpf}`}))`);
}

/** Categories among `ids` this CPF already holds (paid registrations). */
export async function takenCategories(db: Conn, cpf: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: registrationCategories.categoryId })
    .from(registrationCategories)
    .where(and(eq(registrationCategories.cpf, cpf), inArray(registrationCategories.categoryId, ids)));
  return rows.map((r) => r.id);
}

/** Categories this CPF holds through a registration charge still waiting to be paid. */
export async function pendingCategories(db: Conn, cpf: string, now: Date): Promise<number[]> {
  const rows = await db
    .select({ draft: charges.draft })
    .from(charges)
    .where(
      and(
        eq(charges.purpose, 'registration'),
        eq(charges.status, 'ATIVA'),
        gt(charges.expiresAt, now),
        sql`${charges.draft}->>'cpf' = ${cpf}`,
      ),
    );
  return rows.flatMap((r) => {
    const ids = (r.draft as { categoria_evento?: unknown }).categoria_evento;
    return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
  });
}

/** Takes one place atomically; false when none is left. */
export async function takePlace(tx: Tx, categoryId: number): Promise<boolean> {
  const rows = await tx
    .update(eventCategories)
    .set({ placesLeft: sql`${eventCategories.placesLeft} - 1` })
    .where(and(eq(eventCategories.id, categoryId), gt(eventCategories.placesLeft, 0)))
    .returning({ id: eventCategories.id });
  return rows.length === 1;
}

export async function insertReservation(tx: Tx, chargeId: number, categoryId: number): Promise<void> {
  await tx.insert(placeReservations).values({ chargeId, categoryId });
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
  return released.length;
}

export async function insertRegistration(
  tx: Tx,
  values: NewRegistration,
  items: Array<{ categoryId: number; priceCents: number }>,
): Promise<RegistrationRow> {
  const [row] = await tx.insert(registrations).values(values).returning();
  if (!row) throw new Error('inscrição não inserida');
  await tx.insert(registrationCategories).values(
    items.map((i) => ({
      registrationId: row.id,
      categoryId: i.categoryId,
      cpf: values.cpf,
      priceCents: i.priceCents,
    })),
  );
  return row;
}

export async function findByCharge(db: Conn, chargeId: number): Promise<RegistrationRow | null> {
  const [row] = await db.select().from(registrations).where(eq(registrations.chargeId, chargeId)).limit(1);
  return row ?? null;
}

export interface RegistrationCategoryInfo {
  id: number;
  name: string;
  priceCents: number;
}

export async function categoriesOf(db: Conn, registrationId: number): Promise<RegistrationCategoryInfo[]> {
  return db
    .select({
      id: eventCategories.id,
      name: eventCategories.name,
      priceCents: registrationCategories.priceCents,
    })
    .from(registrationCategories)
    .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
    .where(eq(registrationCategories.registrationId, registrationId))
    .orderBy(asc(eventCategories.id));
}

/** The latest registration of `cpf` made by the account `userId` (optionally for one event). */
export async function findLatestForAccount(
  db: Conn,
  userId: number,
  cpf: string,
  eventId?: number,
): Promise<(RegistrationRow & { eventName: string }) | null> {
  const [row] = await db
    .select({ registration: registrations, eventName: events.name })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(
      and(
        eq(registrations.accountUserId, userId),
        eq(registrations.cpf, cpf),
        eventId === undefined ? undefined : eq(registrations.eventId, eventId),
      ),
    )
    .orderBy(desc(registrations.createdAt), desc(registrations.id))
    .limit(1);
  return row ? { ...row.registration, eventName: row.eventName } : null;
}

export async function findUserContact(
  db: Conn,
  userId: number,
): Promise<{ email: string; fullName: string } | null> {
  const [row] = await db
    .select({ email: users.email, fullName: users.fullName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Waits for the transaction that confirmed the charge to end (the confirming transaction holds the
 * charge's row lock) and tells whether it committed as paid.
 */
export async function chargeCommittedAsPaid(db: Db, chargeId: number): Promise<boolean> {
  const [row] = await db
    .select({ status: charges.status })
    .from(charges)
    .where(eq(charges.id, chargeId))
    .for('share');
  return row?.status === 'CONCLUIDA';
}
