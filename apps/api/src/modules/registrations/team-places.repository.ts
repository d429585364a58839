import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventAfterSaleRules,
  eventCategories,
  events,
  registrations,
  teamPlaceBatches,
  teams,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type BatchRow = typeof teamPlaceBatches.$inferSelect;

export async function insertBatch(tx: Tx, values: typeof teamPlaceBatches.$inferInsert): Promise<BatchRow> {
  const [row] = await tx.insert(teamPlaceBatches).values(values).returning();
  if (!row) throw new Error('lote de vagas não inserido');
  return row;
}

export async function batchOfCharge(db: Conn, chargeId: number): Promise<BatchRow | undefined> {
  const [row] = await db.select().from(teamPlaceBatches).where(eq(teamPlaceBatches.chargeId, chargeId));
  return row;
}

export async function batchOfToken(db: Conn, token: string): Promise<BatchRow | undefined> {
  const [row] = await db.select().from(teamPlaceBatches).where(eq(teamPlaceBatches.claimToken, token));
  return row;
}

/** The batch locked: claims, give-backs and the close of one batch run one at a time. */
export async function lockBatch(tx: Tx, where: { id: number } | { token: string }) {
  const [row] = await tx
    .select()
    .from(teamPlaceBatches)
    .where('id' in where ? eq(teamPlaceBatches.id, where.id) : eq(teamPlaceBatches.claimToken, where.token))
    .for('update');
  return row;
}

export async function markClosed(
  tx: Tx,
  id: number,
  values: { closedAt: Date; unclaimedAtClose: number; refundedCents: number },
) {
  await tx.update(teamPlaceBatches).set(values).where(eq(teamPlaceBatches.id, id));
}

/** A team's name (the claim joins the member to it, open or closed: the place was paid for them). */
export async function teamOf(db: Conn, teamId: number) {
  const [row] = await db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, teamId));
  return row;
}

/** Batches of these teams (of one event when given), with the event's and category's names and rule. */
export async function batchesOf(db: Conn, teamIds: number[], eventId?: number) {
  if (teamIds.length === 0) return [];
  return db
    .select({
      batch: teamPlaceBatches,
      eventName: events.name,
      deadline: events.registrationDeadline,
      categoryName: eventCategories.name,
      unclaimedRule: sql<'devolver' | 'liberar'>`coalesce(${eventAfterSaleRules.teamUnclaimed}, 'devolver')`,
      claimed: sql<number>`(select count(*)::int from ${registrations} where ${registrations.teamBatchId} = ${teamPlaceBatches.id} and ${registrations.cancelledAt} is null)`,
    })
    .from(teamPlaceBatches)
    .innerJoin(events, eq(events.id, teamPlaceBatches.eventId))
    .innerJoin(eventCategories, eq(eventCategories.id, teamPlaceBatches.categoryId))
    .leftJoin(eventAfterSaleRules, eq(eventAfterSaleRules.eventId, teamPlaceBatches.eventId))
    .where(
      and(
        inArray(teamPlaceBatches.teamId, teamIds),
        eventId === undefined ? undefined : eq(teamPlaceBatches.eventId, eventId),
      ),
    )
    .orderBy(asc(teamPlaceBatches.id));
}

/** Open batches and their event's registration deadline, for the sweep that closes them. */
export async function openBatches(db: Conn) {
  return db
    .select({ id: teamPlaceBatches.id, deadline: events.registrationDeadline })
    .from(teamPlaceBatches)
    .innerJoin(events, eq(events.id, teamPlaceBatches.eventId))
    .where(isNull(teamPlaceBatches.closedAt))
    .orderBy(asc(teamPlaceBatches.id));
}

/** The event's rule for places nobody claimed. */
export async function unclaimedRule(db: Conn, eventId: number): Promise<'devolver' | 'liberar'> {
  const [row] = await db
    .select({ rule: eventAfterSaleRules.teamUnclaimed })
    .from(eventAfterSaleRules)
    .where(eq(eventAfterSaleRules.eventId, eventId));
  return row?.rule ?? 'devolver';
}
