import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orderItems, orders } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type NewOrderItem = Omit<typeof orderItems.$inferInsert, 'orderId'>;

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
