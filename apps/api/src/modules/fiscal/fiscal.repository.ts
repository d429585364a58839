import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  events,
  fiscalDocuments,
  fiscalSettings,
  fiscalTaxRules,
  orderItems,
  orderReturnItems,
  orderReturns,
  orders,
  productFiscal,
  registrations,
  users,
} from '../../db/schema/index.ts';

/**
 * The fiscal module's SQL. It owns the `fiscal_*` and `product_fiscal` tables; the sale it describes
 * (orders, their items and returns, registrations, the buyer's name and e-mail) is only read here, never
 * written, to build the nota (docs/decisions/0043).
 */

type Conn = Db | Tx;
export type DocumentRow = typeof fiscalDocuments.$inferSelect;
export type SettingsRow = typeof fiscalSettings.$inferSelect;
export type TaxRuleRow = typeof fiscalTaxRules.$inferSelect;

export async function settings(db: Conn): Promise<SettingsRow> {
  await db.insert(fiscalSettings).values({ id: 1 }).onConflictDoNothing();
  const [row] = await db.select().from(fiscalSettings).where(eq(fiscalSettings.id, 1));
  return row!;
}

export async function lockSettings(tx: Tx): Promise<SettingsRow> {
  await tx.insert(fiscalSettings).values({ id: 1 }).onConflictDoNothing();
  const [row] = await tx.select().from(fiscalSettings).where(eq(fiscalSettings.id, 1)).for('update');
  return row!;
}

export async function updateSettings(tx: Tx, values: Partial<typeof fiscalSettings.$inferInsert>) {
  const [row] = await tx.update(fiscalSettings).set(values).where(eq(fiscalSettings.id, 1)).returning();
  return row!;
}

export const taxRules = (db: Conn) =>
  db.select().from(fiscalTaxRules).orderBy(asc(fiscalTaxRules.destination));

export async function replaceTaxRules(tx: Tx, rows: Array<typeof fiscalTaxRules.$inferInsert>) {
  await tx.delete(fiscalTaxRules);
  if (rows.length) await tx.insert(fiscalTaxRules).values(rows);
}

export async function productFiscalOf(db: Conn, productIds: number[]) {
  if (!productIds.length) return [];
  return db.select().from(productFiscal).where(inArray(productFiscal.productId, productIds));
}

export async function saveProductFiscal(tx: Tx, productId: number, ncm: string, origin: number) {
  await tx
    .insert(productFiscal)
    .values({ productId, ncm, origin })
    .onConflictDoUpdate({ target: productFiscal.productId, set: { ncm, origin } });
}

export async function findByRef(db: Conn, ref: string) {
  const [row] = await db.select().from(fiscalDocuments).where(eq(fiscalDocuments.ref, ref));
  return row;
}

export async function findDocument(db: Conn, id: number) {
  const [row] = await db.select().from(fiscalDocuments).where(eq(fiscalDocuments.id, id));
  return row;
}

export async function insertDocument(tx: Tx, values: typeof fiscalDocuments.$inferInsert) {
  const [row] = await tx.insert(fiscalDocuments).values(values).returning();
  return row!;
}

export async function updateDocument(
  db: Conn,
  id: number,
  values: Partial<typeof fiscalDocuments.$inferInsert>,
  whenStatus?: DocumentRow['status'],
) {
  const [row] = await db
    .update(fiscalDocuments)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(fiscalDocuments.id, id), whenStatus ? eq(fiscalDocuments.status, whenStatus) : undefined))
    .returning();
  return row;
}

export async function bumpAttempts(db: Conn, id: number, reason: string) {
  await db
    .update(fiscalDocuments)
    .set({ attempts: sql`${fiscalDocuments.attempts} + 1`, reason, updatedAt: new Date() })
    .where(eq(fiscalDocuments.id, id));
}

/** Documents of orders and registrations, files left out (they are read one at a time). */
const summary = {
  id: fiscalDocuments.id,
  kind: fiscalDocuments.kind,
  ref: fiscalDocuments.ref,
  accessToken: fiscalDocuments.accessToken,
  orderId: fiscalDocuments.orderId,
  registrationId: fiscalDocuments.registrationId,
  returnId: fiscalDocuments.returnId,
  status: fiscalDocuments.status,
  reason: fiscalDocuments.reason,
  accessKey: fiscalDocuments.accessKey,
  providerNumber: fiscalDocuments.providerNumber,
  attempts: fiscalDocuments.attempts,
  authorisedAt: fiscalDocuments.authorisedAt,
  amountCents: fiscalDocuments.amountCents,
};
export type DocumentSummary = Pick<DocumentRow, keyof typeof summary>;

export function documentsOfOrder(db: Conn, orderId: number): Promise<DocumentSummary[]> {
  return db
    .select(summary)
    .from(fiscalDocuments)
    .where(eq(fiscalDocuments.orderId, orderId))
    .orderBy(asc(fiscalDocuments.id));
}

export function documentsOfRegistrations(db: Conn, ids: number[]): Promise<DocumentSummary[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select(summary)
    .from(fiscalDocuments)
    .where(inArray(fiscalDocuments.registrationId, ids))
    .orderBy(asc(fiscalDocuments.id));
}

export function pendingDocuments(db: Conn, olderThan: Date) {
  return db
    .select({ id: fiscalDocuments.id })
    .from(fiscalDocuments)
    .where(and(eq(fiscalDocuments.status, 'pendente'), sql`${fiscalDocuments.updatedAt} < ${olderThan}`))
    .limit(200);
}

// ---- the sale, read only ----

export async function orderForNota(db: Conn, orderId: number) {
  const [order] = await db
    .select({
      id: orders.id,
      status: orders.status,
      userId: orders.userId,
      buyerCpf: orders.buyerCpf,
      address: orders.address,
      shippingCents: orders.shippingCents,
      discountCents: orders.discountCents,
      subtotalCents: orders.subtotalCents,
      orderDate: orders.orderDate,
      buyerName: users.fullName,
      buyerEmail: users.email,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!order) return undefined;
  const items = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.id));
  return { ...order, items };
}

export async function registrationForNota(db: Conn, registrationId: number) {
  const [row] = await db
    .select({
      id: registrations.id,
      orderId: registrations.orderId,
      fullName: registrations.fullName,
      cpf: registrations.cpf,
      email: registrations.email,
      totalCents: registrations.totalCents,
      cancelledAt: registrations.cancelledAt,
      eventName: events.name,
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(eq(registrations.id, registrationId));
  return row;
}

export async function returnForNota(db: Conn, returnId: number) {
  const [row] = await db.select().from(orderReturns).where(eq(orderReturns.id, returnId));
  if (!row) return undefined;
  const items = await db
    .select({
      orderItemId: orderReturnItems.orderItemId,
      quantity: orderReturnItems.quantity,
      valueCents: orderReturnItems.valueCents,
    })
    .from(orderReturnItems)
    .where(eq(orderReturnItems.returnId, returnId));
  return { ...row, items };
}

/** The notas of an account's orders and of the registrations it made. */
export async function documentsOfUser(db: Conn, userId: number): Promise<DocumentSummary[]> {
  const ofOrders = await db
    .select(summary)
    .from(fiscalDocuments)
    .innerJoin(orders, eq(orders.id, fiscalDocuments.orderId))
    .where(and(eq(orders.userId, userId), sql`${fiscalDocuments.registrationId} is null`));
  const ofRegistrations = await db
    .select(summary)
    .from(fiscalDocuments)
    .innerJoin(registrations, eq(registrations.id, fiscalDocuments.registrationId))
    .where(eq(registrations.accountUserId, userId));
  return [...ofOrders, ...ofRegistrations].sort((a, b) => a.id - b.id);
}
