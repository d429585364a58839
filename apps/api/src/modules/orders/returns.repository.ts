import { and, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  orderDeliveries,
  orderExchangeItems,
  orderReturnEvents,
  orderReturnItems,
  orderReturns,
  orderStatusChanges,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;
export type ReturnRow = typeof orderReturns.$inferSelect;
export type ReturnItemRow = typeof orderReturnItems.$inferSelect;
export type ExchangeItemRow = typeof orderExchangeItems.$inferSelect;
export type ReturnEventRow = typeof orderReturnEvents.$inferSelect;

/** Every write of a request's state leaves a history line (docs/decisions/0040), in the same transaction. */
async function recordEvent(tx: Tx, row: ReturnRow, note: string | null = null): Promise<void> {
  await tx.insert(orderReturnEvents).values({
    returnId: row.id,
    status: row.status,
    note,
    at: row.updatedAt ?? row.createdAt,
  });
}

export async function insertReturn(tx: Tx, values: typeof orderReturns.$inferInsert): Promise<ReturnRow> {
  const [row] = await tx.insert(orderReturns).values(values).returning();
  await recordEvent(tx, row!);
  return row!;
}

export async function insertReturnItems(
  tx: Tx,
  rows: (typeof orderReturnItems.$inferInsert)[],
): Promise<void> {
  if (rows.length) await tx.insert(orderReturnItems).values(rows);
}

export async function updateReturn(tx: Tx, id: number, values: Partial<ReturnRow>): Promise<ReturnRow> {
  const [row] = await tx.update(orderReturns).set(values).where(eq(orderReturns.id, id)).returning();
  if (values.status)
    await recordEvent(tx, row!, values.status === 'recusada' ? (row!.refusal ?? null) : null);
  return row!;
}

export async function listReturnEvents(db: Conn, returnIds: number[]): Promise<ReturnEventRow[]> {
  if (!returnIds.length) return [];
  return db
    .select()
    .from(orderReturnEvents)
    .where(inArray(orderReturnEvents.returnId, returnIds))
    .orderBy(orderReturnEvents.id);
}

export async function insertExchangeItems(
  tx: Tx,
  rows: (typeof orderExchangeItems.$inferInsert)[],
): Promise<void> {
  if (rows.length) await tx.insert(orderExchangeItems).values(rows);
}

export async function listExchangeItems(db: Conn, returnIds: number[]): Promise<ExchangeItemRow[]> {
  if (!returnIds.length) return [];
  return db
    .select()
    .from(orderExchangeItems)
    .where(inArray(orderExchangeItems.returnId, returnIds))
    .orderBy(orderExchangeItems.id);
}

/** The exchange's units are no longer held (shipped, or back on the shelf). */
export async function clearExchangeHold(tx: Tx, returnId: number): Promise<void> {
  await tx.update(orderExchangeItems).set({ held: false }).where(eq(orderExchangeItems.returnId, returnId));
}

export async function findReturnByDifferenceCharge(db: Conn, chargeId: number): Promise<ReturnRow | null> {
  const [row] = await db.select().from(orderReturns).where(eq(orderReturns.differenceChargeId, chargeId));
  return row ?? null;
}

/** Exchanges still waiting for the buyer's parcel (their window may lapse). */
export async function listWaitingExchanges(db: Conn): Promise<ReturnRow[]> {
  return db
    .select()
    .from(orderReturns)
    .where(
      and(eq(orderReturns.kind, 'troca'), inArray(orderReturns.status, ['solicitada', 'codigo_enviado'])),
    )
    .orderBy(orderReturns.id);
}

export async function lockReturn(tx: Tx, id: number): Promise<ReturnRow | null> {
  const [row] = await tx.select().from(orderReturns).where(eq(orderReturns.id, id)).for('update');
  return row ?? null;
}

export async function findReturn(db: Conn, id: number): Promise<ReturnRow | null> {
  const [row] = await db.select().from(orderReturns).where(eq(orderReturns.id, id));
  return row ?? null;
}

export async function listReturnsOfOrder(db: Conn, orderId: number): Promise<ReturnRow[]> {
  return db.select().from(orderReturns).where(eq(orderReturns.orderId, orderId)).orderBy(orderReturns.id);
}

/** The staff queue: requests in the given states, oldest first. */
export async function listReturnsByStatus(db: Conn, statuses: ReturnRow['status'][]): Promise<ReturnRow[]> {
  if (!statuses.length) return db.select().from(orderReturns).orderBy(desc(orderReturns.id)).limit(200);
  return db
    .select()
    .from(orderReturns)
    .where(inArray(orderReturns.status, statuses))
    .orderBy(orderReturns.id);
}

export async function listReturnItems(db: Conn, returnIds: number[]): Promise<ReturnItemRow[]> {
  if (!returnIds.length) return [];
  return db
    .select()
    .from(orderReturnItems)
    .where(inArray(orderReturnItems.returnId, returnIds))
    .orderBy(orderReturnItems.id);
}

export async function setItemRestocked(tx: Tx, id: number, restocked: boolean): Promise<void> {
  await tx.update(orderReturnItems).set({ restocked }).where(eq(orderReturnItems.id, id));
}

/** Units of each order line already asked back by a request staff did not refuse. */
export async function unitsAskedBack(db: Conn, orderId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ itemId: orderReturnItems.orderItemId, units: sql<string>`sum(${orderReturnItems.quantity})` })
    .from(orderReturnItems)
    .innerJoin(orderReturns, eq(orderReturns.id, orderReturnItems.returnId))
    .where(and(eq(orderReturns.orderId, orderId), ne(orderReturns.status, 'recusada')))
    .groupBy(orderReturnItems.orderItemId);
  return new Map(rows.map((r) => [r.itemId, Number(r.units)]));
}

/** The day the parcel was delivered: the recorded delivery, else the day staff marked it `entregue`. */
export async function deliveredOn(
  db: Conn,
  orderId: number,
): Promise<{ day: string | null; at: Date | null }> {
  const [known] = await db.select().from(orderDeliveries).where(eq(orderDeliveries.orderId, orderId));
  if (known) return { day: known.deliveredOn, at: known.at };
  const [marked] = await db
    .select({ at: orderStatusChanges.at })
    .from(orderStatusChanges)
    .where(and(eq(orderStatusChanges.orderId, orderId), eq(orderStatusChanges.status, 'entregue')))
    .orderBy(desc(orderStatusChanges.id))
    .limit(1);
  return { day: null, at: marked?.at ?? null };
}

export async function saveDelivery(tx: Tx, values: typeof orderDeliveries.$inferInsert): Promise<void> {
  await tx
    .insert(orderDeliveries)
    .values(values)
    .onConflictDoUpdate({
      target: orderDeliveries.orderId,
      set: { deliveredOn: values.deliveredOn, source: values.source, at: values.at },
    });
}

/** Requests whose posting code was sent and whose parcel the carrier may have received since. */
export async function listAwaitingPosting(db: Conn): Promise<ReturnRow[]> {
  return db
    .select()
    .from(orderReturns)
    .where(and(eq(orderReturns.status, 'codigo_enviado'), isNotNull(orderReturns.postingCode)))
    .orderBy(orderReturns.id);
}

/**
 * Units of each line of these orders the buyer withdrew before shipping (`desistencia`): they never ship,
 * so the packing slip and the order's answers leave them out.
 */
export async function unitsWithdrawn(db: Conn, orderIds: number[]): Promise<Map<number, number>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .select({ itemId: orderReturnItems.orderItemId, units: sql<string>`sum(${orderReturnItems.quantity})` })
    .from(orderReturnItems)
    .innerJoin(orderReturns, eq(orderReturns.id, orderReturnItems.returnId))
    .where(and(inArray(orderReturns.orderId, orderIds), eq(orderReturns.kind, 'desistencia')))
    .groupBy(orderReturnItems.orderItemId);
  return new Map(rows.map((r) => [r.itemId, Number(r.units)]));
}

/** The request's latest history row: the state an e-mail enqueued now tells. */
export async function latestEventId(db: Conn, returnId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: orderReturnEvents.id })
    .from(orderReturnEvents)
    .where(eq(orderReturnEvents.returnId, returnId))
    .orderBy(desc(orderReturnEvents.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Takes a state's e-mail to send: answers the history row when nobody took it before, null when it was
 * (a job run twice, a copy of the job). `releaseEventMail` gives it back when the send failed.
 */
export async function claimEventMail(db: Conn, eventId: number, at: Date): Promise<ReturnEventRow | null> {
  const [row] = await db
    .update(orderReturnEvents)
    .set({ mailedAt: at })
    .where(and(eq(orderReturnEvents.id, eventId), isNull(orderReturnEvents.mailedAt)))
    .returning();
  return row ?? null;
}

export async function releaseEventMail(db: Conn, eventId: number): Promise<void> {
  await db.update(orderReturnEvents).set({ mailedAt: null }).where(eq(orderReturnEvents.id, eventId));
}
