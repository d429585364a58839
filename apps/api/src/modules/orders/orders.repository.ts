import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { inIds, prepared } from '../../db/prepared.ts';
import {
  orderItems,
  orderNotes,
  orderReturnItems,
  orderReturns,
  orderStatusChanges,
  orders,
  users,
} from '../../db/schema/index.ts';

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

// Built once (db/prepared.ts): a paid order is read by its charge on every purchase.
const ownedOrderByCharge = prepared('order_owned_by_charge', (c) =>
  c
    .select()
    .from(orders)
    .where(
      and(eq(orders.chargeId, sql.placeholder('chargeId')), eq(orders.userId, sql.placeholder('userId'))),
    )
    .limit(1),
);

/** The order a charge paid for, by charge AND owner: another user's order reads as missing. */
export async function findOwnedOrderByCharge(
  db: Conn,
  userId: number,
  chargeId: number,
): Promise<OrderRow | null> {
  const [row] = await ownedOrderByCharge(db).execute({ userId, chargeId });
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

const itemsOfOrders = prepared('order_items_of_orders', (c) =>
  c
    .select()
    .from(orderItems)
    .where(inIds(orderItems.orderId))
    .orderBy(asc(orderItems.orderId), asc(orderItems.id)),
);

export async function findItems(db: Conn, orderIds: number[]): Promise<OrderItemRow[]> {
  if (!orderIds.length) return [];
  return itemsOfOrders(db).execute({ ids: orderIds });
}

export type StatusChangeRow = typeof orderStatusChanges.$inferSelect;

export interface OrderFilter {
  status?: OrderRow['status'];
  from?: Date;
  to?: Date;
  method?: string;
  search?: string;
}

function filterWhere(f: OrderFilter): SQL | undefined {
  const conds: SQL[] = [];
  if (f.status) conds.push(eq(orders.status, f.status));
  if (f.from) conds.push(gte(orders.orderDate, f.from));
  if (f.to) conds.push(lt(orders.orderDate, f.to));
  if (f.method) conds.push(eq(orders.paymentMethod, f.method));
  const q = f.search?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byText = or(
      ilike(users.email, like),
      ilike(users.fullName, like),
      sql`${orders.address}->>'full_name' ilike ${like}`,
    );
    const number = /^#?(\d{1,9})$/.exec(q);
    // A whole CPF, typed with or without its dots and dash.
    const cpf = /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(q) ? q.replace(/\D/g, '') : null;
    conds.push(
      or(
        byText,
        number ? eq(orders.id, Number(number[1])) : undefined,
        cpf ? eq(orders.buyerCpf, cpf) : undefined,
      )!,
    );
  }
  return conds.length ? and(...conds) : undefined;
}

/** A page of orders for staff, newest first, with the buyer and the number of units. */
export async function listOrdersForStaff(db: Conn, f: OrderFilter, limit: number, offset: number) {
  const where = filterWhere(f);
  const rows = await db
    .select({
      order: orders,
      email: users.email,
      /** The buying account's name (the address's name is who receives the parcel). */
      buyerName: users.fullName,
      units: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db
    .select({ n: count() })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findBuyer(db: Conn, userId: number | null) {
  if (userId === null) return null;
  const [row] = await db
    .select({ name: users.fullName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** Locks the order row so two staff members moving it at once move it one after the other. */
/** The additions joined to these orders (docs/decisions/0087), oldest first. */
export async function findComplements(db: Conn, orderIds: number[]): Promise<OrderRow[]> {
  if (!orderIds.length) return [];
  return db.select().from(orders).where(inArray(orders.complementOfId, orderIds)).orderBy(orders.id);
}

export async function lockOrder(tx: Tx, id: number): Promise<OrderRow | null> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return row ?? null;
}

export async function updateOrder(tx: Tx, id: number, values: Partial<NewOrder>): Promise<OrderRow> {
  const [row] = await tx.update(orders).set(values).where(eq(orders.id, id)).returning();
  if (!row) throw new Error('update orders returned nothing');
  return row;
}

export async function insertStatusChange(tx: Tx, values: typeof orderStatusChanges.$inferInsert) {
  await tx.insert(orderStatusChanges).values(values);
}

export async function listStatusChanges(db: Conn, orderId: number): Promise<StatusChangeRow[]> {
  return db
    .select()
    .from(orderStatusChanges)
    .where(eq(orderStatusChanges.orderId, orderId))
    .orderBy(asc(orderStatusChanges.at), asc(orderStatusChanges.id));
}

/** The moves of these orders after payment (status and when), oldest first: the buyer's timeline. */
export async function listMovesOf(db: Conn, orderIds: number[]) {
  if (!orderIds.length) return [];
  return db
    .select({
      orderId: orderStatusChanges.orderId,
      status: orderStatusChanges.status,
      at: orderStatusChanges.at,
    })
    .from(orderStatusChanges)
    .where(inArray(orderStatusChanges.orderId, orderIds))
    .orderBy(asc(orderStatusChanges.at), asc(orderStatusChanges.id));
}

/** Orders in these statuses that ship something (an order of registrations alone ships nothing). */
export async function countShippingByStatus(db: Conn, statuses: OrderRow['status'][]): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(inArray(orders.status, statuses), isNotNull(orders.shippingService)));
  return row?.n ?? 0;
}

export async function findOrderIdsByCharges(db: Conn, chargeIds: number[]) {
  if (!chargeIds.length) return [];
  return db
    .select({ id: orders.id, chargeId: orders.chargeId })
    .from(orders)
    .where(inArray(orders.chargeId, chargeIds));
}

export type NoteRow = typeof orderNotes.$inferSelect;

export async function insertNote(tx: Tx, values: typeof orderNotes.$inferInsert) {
  const [row] = await tx.insert(orderNotes).values(values).returning();
  return row!;
}

export function listNotes(db: Conn, orderId: number) {
  return db
    .select()
    .from(orderNotes)
    .where(eq(orderNotes.orderId, orderId))
    .orderBy(asc(orderNotes.at), asc(orderNotes.id));
}

/** The order's confirmation e-mail was sent (or had nobody to go to): later e-mails may go. */
export async function confirmationSent(db: Db | Tx, id: number): Promise<void> {
  await db.update(orders).set({ confirmationPending: false }).where(eq(orders.id, id));
}

/**
 * The order's version (docs/decisions/0065): its status rows and its after-sale requests, counted. Every
 * change writes one or the other and none is ever removed, so the count moves with every change.
 */
export async function orderVersion(db: Conn, orderId: number): Promise<number> {
  const statuses = await db.$count(orderStatusChanges, eq(orderStatusChanges.orderId, orderId));
  const requests = await db.$count(orderReturns, eq(orderReturns.orderId, orderId));
  return statuses + requests;
}

/**
 * Moves `units` of a line to another colour and size at the price paid (docs/decisions/0065): the line
 * itself when all its units move and none was ever asked back (requests keep pointing at their line),
 * else a new line beside it with the old one's quantity reduced.
 */
export async function swapItemUnits(
  tx: Tx,
  item: OrderItemRow,
  units: number,
  to: { colorId: number; colorName: string; sizeId: number; sizeName: string },
): Promise<void> {
  const variant = { colorId: to.colorId, colorName: to.colorName, sizeId: to.sizeId, sizeName: to.sizeName };
  const [asked] = await tx
    .select({ n: count() })
    .from(orderReturnItems)
    .where(eq(orderReturnItems.orderItemId, item.id));
  if (units === item.quantity && !asked?.n) {
    await tx.update(orderItems).set(variant).where(eq(orderItems.id, item.id));
    return;
  }
  await tx
    .update(orderItems)
    .set({ quantity: item.quantity - units })
    .where(eq(orderItems.id, item.id));
  const { id: _id, ...copy } = item;
  await tx.insert(orderItems).values({ ...copy, ...variant, quantity: units });
}
