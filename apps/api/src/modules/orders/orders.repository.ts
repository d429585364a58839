import { and, asc, desc, eq, gte, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orderItems, orders, stock, stockReservations } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type NewOrderItem = Omit<typeof orderItems.$inferInsert, 'orderId'>;

export interface StockLine {
  productId: number;
  colorId: number;
  sizeId: number;
  quantity: number;
}

/**
 * Takes `quantity` units of one combination in one conditional statement: under concurrency the row
 * lock makes later buyers re-check `quantity >= n` against the winner's result, so stock never
 * goes below what was really there. False when there were not enough units.
 */
export async function takeStock(tx: Tx, line: StockLine): Promise<boolean> {
  const rows = await tx
    .update(stock)
    .set({ quantity: sql`${stock.quantity} - ${line.quantity}` })
    .where(
      and(
        eq(stock.productId, line.productId),
        eq(stock.colorId, line.colorId),
        eq(stock.sizeId, line.sizeId),
        gte(stock.quantity, line.quantity),
      ),
    )
    .returning({ quantity: stock.quantity });
  return rows.length > 0;
}

export async function giveBackStock(tx: Tx, line: StockLine): Promise<void> {
  await tx
    .update(stock)
    .set({ quantity: sql`${stock.quantity} + ${line.quantity}` })
    .where(
      and(
        eq(stock.productId, line.productId),
        eq(stock.colorId, line.colorId),
        eq(stock.sizeId, line.sizeId),
      ),
    );
}

export async function insertReservations(tx: Tx, chargeId: number, lines: StockLine[]): Promise<void> {
  if (!lines.length) return;
  await tx.insert(stockReservations).values(lines.map((l) => ({ chargeId, ...l })));
}

/**
 * Marks the charge's held units as released and answers them, once: a second call (or a concurrent
 * one, after the row locks) finds nothing left. Units of a charge that became an order were sold and
 * are never released.
 */
export async function releaseReservations(tx: Tx, chargeId: number, now: Date): Promise<StockLine[]> {
  return tx
    .update(stockReservations)
    .set({ releasedAt: now })
    .where(
      and(
        eq(stockReservations.chargeId, chargeId),
        isNull(stockReservations.releasedAt),
        notExists(tx.select({ one: sql`1` }).from(orders).where(eq(orders.chargeId, chargeId))),
      ),
    )
    .returning({
      productId: stockReservations.productId,
      colorId: stockReservations.colorId,
      sizeId: stockReservations.sizeId,
      quantity: stockReservations.quantity,
    });
}

export async function findReservations(db: Conn, chargeId: number) {
  return db
    .select()
    .from(stockReservations)
    .where(eq(stockReservations.chargeId, chargeId))
    .orderBy(asc(stockReservations.id));
}

export async function insertOrder(tx: Tx, values: NewOrder, items: NewOrderItem[]): Promise<OrderRow> {
  const [row] = await tx.insert(orders).values(values).returning();
  if (!row) throw new Error('insert orders returned nothing');
  if (items.length) await tx.insert(orderItems).values(items.map((i) => ({ ...i, orderId: row.id })));
  return row;
}

export async function findOrderIdByCharge(db: Conn, chargeId: number): Promise<{ id: number } | null> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.chargeId, chargeId)).limit(1);
  return row ?? null;
}

/** By id AND owner: another user's order reads as missing. */
export async function findOwnedOrder(db: Conn, userId: number, id: number): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function findOrder(db: Conn, id: number): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row ?? null;
}

export async function listOrdersByUser(db: Conn, userId: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.orderDate), desc(orders.id));
}

export async function findItems(db: Conn, orderIds: number[]): Promise<OrderItemRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.orderId), asc(orderItems.id));
}
