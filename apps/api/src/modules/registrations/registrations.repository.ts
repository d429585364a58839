import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { inIds, prepared } from '../../db/prepared.ts';
import {
  eventCategories,
  events,
  registrationCategories,
  registrationCheckins,
  registrations,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type RegistrationRow = typeof registrations.$inferSelect;
export type NewRegistration = typeof registrations.$inferInsert;

/**
 * Serialises registrations of one CPF until the transaction ends, so two charges for the same person
 * and category cannot both pass the duplicate check.
 */
export async function lockCpf(tx: Tx, cpf: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`registration-cpf:${cpf}`}))`);
}

/** Categories among `ids` this CPF already holds (paid registrations not cancelled). */
export async function takenCategories(db: Conn, cpf: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: registrationCategories.categoryId })
    .from(registrationCategories)
    .where(
      and(
        eq(registrationCategories.cpf, cpf),
        inArray(registrationCategories.categoryId, ids),
        isNull(registrationCategories.cancelledAt),
      ),
    );
  return rows.map((r) => r.id);
}

export async function insertRegistration(
  tx: Tx,
  values: NewRegistration,
  items: Array<{
    categoryId: number;
    priceCents: number;
    lotName?: string | null;
    priceRuleId?: number | null;
  }>,
): Promise<RegistrationRow> {
  const [row] = await tx.insert(registrations).values(values).returning();
  if (!row) throw new Error('inscrição não inserida');
  await tx.insert(registrationCategories).values(
    items.map((i) => ({
      registrationId: row.id,
      categoryId: i.categoryId,
      cpf: values.cpf,
      priceCents: i.priceCents,
      // The lot that priced it, for the reports' sales per lot.
      lotName: i.lotName ?? null,
      priceRuleId: i.priceRuleId ?? null,
    })),
  );
  return row;
}

export async function findById(db: Conn, id: number): Promise<RegistrationRow | null> {
  const [row] = await db.select().from(registrations).where(eq(registrations.id, id)).limit(1);
  return row ?? null;
}

/** The registration, its row locked until the transaction ends (a cancellation runs once). */
export async function lockRegistration(tx: Tx, id: number): Promise<RegistrationRow | null> {
  const [row] = await tx.select().from(registrations).where(eq(registrations.id, id)).for('update');
  return row ?? null;
}

/** Every registration a charge paid for (one on the direct path, one per participant in a cart). */
export async function listByCharge(db: Conn, chargeId: number): Promise<RegistrationRow[]> {
  return db
    .select()
    .from(registrations)
    .where(eq(registrations.chargeId, chargeId))
    .orderBy(asc(registrations.id));
}

/**
 * Marks the charge's registrations not yet cancelled as cancelled, their categories with them (the
 * partial unique index then lets the CPF register again); answers the rows it cancelled.
 */
export async function cancelByCharge(
  tx: Tx,
  chargeId: number,
  at: Date,
  reason: string | null,
): Promise<RegistrationRow[]> {
  const rows = await tx
    .update(registrations)
    .set({ cancelledAt: at, cancelReason: reason })
    .where(and(eq(registrations.chargeId, chargeId), isNull(registrations.cancelledAt)))
    .returning();
  if (rows.length)
    await tx
      .update(registrationCategories)
      .set({ cancelledAt: at })
      .where(
        inArray(
          registrationCategories.registrationId,
          rows.map((r) => r.id),
        ),
      );
  return rows;
}

/** Stamps one registration cancelled (and its categories), leaving the others of its charge as they are. */
export async function cancelOne(
  tx: Tx,
  id: number,
  at: Date,
  reason: string | null,
): Promise<RegistrationRow | null> {
  const [row] = await tx
    .update(registrations)
    .set({ cancelledAt: at, cancelReason: reason })
    .where(and(eq(registrations.id, id), isNull(registrations.cancelledAt)))
    .returning();
  if (row)
    await tx
      .update(registrationCategories)
      .set({ cancelledAt: at })
      .where(eq(registrationCategories.registrationId, id));
  return row ?? null;
}

export async function findByCharge(db: Conn, chargeId: number): Promise<RegistrationRow | null> {
  const [row] = await db.select().from(registrations).where(eq(registrations.chargeId, chargeId)).limit(1);
  return row ?? null;
}

export interface RegistrationCategoryInfo {
  id: number;
  name: string;
  priceCents: number;
  /** The start wave given for this race (docs/decisions/0066), or null. */
  waveId: number | null;
}

export async function categoriesOf(db: Conn, registrationId: number): Promise<RegistrationCategoryInfo[]> {
  return db
    .select({
      id: eventCategories.id,
      name: eventCategories.name,
      priceCents: registrationCategories.priceCents,
      waveId: registrationCategories.waveId,
    })
    .from(registrationCategories)
    .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
    .where(eq(registrationCategories.registrationId, registrationId))
    .orderBy(asc(eventCategories.id));
}

/** A registration's races with the price rule that priced each (docs/decisions/0068), or null. */
export async function categoriesWithRules(db: Conn, registrationId: number) {
  return db
    .select({
      id: registrationCategories.categoryId,
      priceCents: registrationCategories.priceCents,
      priceRuleId: registrationCategories.priceRuleId,
    })
    .from(registrationCategories)
    .where(eq(registrationCategories.registrationId, registrationId))
    .orderBy(asc(registrationCategories.categoryId));
}

/** The registration's races leave their price rule (a transfer to someone else, docs/decisions/0068). */
export async function clearPriceRules(tx: Tx, registrationId: number): Promise<void> {
  await tx
    .update(registrationCategories)
    .set({ priceRuleId: null })
    .where(eq(registrationCategories.registrationId, registrationId));
}

/** The categories of several registrations in one statement, by registration (each in id order). */
export async function categoriesOfMany(
  db: Conn,
  registrationIds: number[],
): Promise<Map<number, RegistrationCategoryInfo[]>> {
  const byId = new Map<number, RegistrationCategoryInfo[]>(registrationIds.map((id) => [id, []]));
  if (registrationIds.length === 0) return byId;
  const rows = await db
    .select({
      registrationId: registrationCategories.registrationId,
      id: eventCategories.id,
      name: eventCategories.name,
      priceCents: registrationCategories.priceCents,
      waveId: registrationCategories.waveId,
    })
    .from(registrationCategories)
    .innerJoin(eventCategories, eq(eventCategories.id, registrationCategories.categoryId))
    .where(inArray(registrationCategories.registrationId, registrationIds))
    .orderBy(asc(eventCategories.id));
  for (const { registrationId, ...c } of rows) byId.get(registrationId)?.push(c);
  return byId;
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

/** The account's registrations, newest first (by `registrations_account_cpf_idx`). */
export async function findForAccount(
  db: Conn,
  userId: number,
  limit: number,
): Promise<Array<RegistrationRow & { eventName: string }>> {
  const rows = await db
    .select({ registration: registrations, eventName: events.name })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(eq(registrations.accountUserId, userId))
    .orderBy(desc(registrations.createdAt), desc(registrations.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.registration, eventName: r.eventName }));
}

// Read with every order shown, the buyer's answer after paying included (db/prepared.ts).
const registrationsOfOrders = prepared('registrations_of_orders', (c) =>
  c
    .select({ registration: registrations, eventName: events.name })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(inIds(registrations.orderId))
    .orderBy(asc(registrations.id)),
);

/** The registrations paid with the given shop orders (a mixed cart), in order. */
export async function listByOrders(
  db: Conn,
  orderIds: number[],
): Promise<Array<RegistrationRow & { orderId: number; eventName: string }>> {
  if (orderIds.length === 0) return [];
  const rows = await registrationsOfOrders(db).execute({ ids: orderIds });
  return rows.map((r) => ({
    ...r.registration,
    orderId: r.registration.orderId ?? 0,
    eventName: r.eventName,
  }));
}

export type CheckinRow = typeof registrationCheckins.$inferSelect;

export async function findCheckins(db: Conn, registrationIds: number[]): Promise<CheckinRow[]> {
  if (!registrationIds.length) return [];
  return db
    .select()
    .from(registrationCheckins)
    .where(inArray(registrationCheckins.registrationId, registrationIds));
}

/** The first check-in wins (primary key); a second one gets undefined and reads the first. */
export async function insertCheckin(
  db: Conn,
  row: {
    registrationId: number;
    staffId: number;
    staffName: string;
    at: Date;
    desk?: string | null;
    collectedBy?: 'titular' | 'autorizado' | 'equipe';
    collectorName?: string | null;
    itemQuantity?: number | null;
  },
): Promise<CheckinRow | undefined> {
  const [created] = await db.insert(registrationCheckins).values(row).onConflictDoNothing().returning();
  return created;
}

/**
 * Removes the check-in made at `at` (the one staff saw when they chose to undo it), answering it; a
 * newer check-in, or none, gives undefined and stays as it is.
 */
export async function deleteCheckin(
  db: Conn,
  registrationId: number,
  at: Date,
): Promise<CheckinRow | undefined> {
  const [removed] = await db
    .delete(registrationCheckins)
    .where(and(eq(registrationCheckins.registrationId, registrationId), eq(registrationCheckins.at, at)))
    .returning();
  return removed;
}
