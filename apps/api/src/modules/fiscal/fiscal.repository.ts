import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  charges,
  events,
  fiscalDocumentRegistrations,
  fiscalDocuments,
  fiscalRegistrationWaits,
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

/** The notas of registrations: their own NFS-e, and the month's NFS-e of the event that covers them. */
export async function documentsOfRegistrations(db: Conn, ids: number[]): Promise<DocumentSummary[]> {
  if (!ids.length) return [];
  const own = await db
    .select(summary)
    .from(fiscalDocuments)
    .where(inArray(fiscalDocuments.registrationId, ids));
  const grouped = await db
    .select({ ...summary, registrationId: fiscalDocumentRegistrations.registrationId })
    .from(fiscalDocumentRegistrations)
    .innerJoin(fiscalDocuments, eq(fiscalDocuments.id, fiscalDocumentRegistrations.documentId))
    .where(inArray(fiscalDocumentRegistrations.registrationId, ids));
  return [...own, ...grouped].sort((a, b) => a.id - b.id);
}

// ---- one NFS-e per event per month (docs/decisions/0049) ----

/**
 * Paid registrations of the month (`from` ≤ paid < `to`) not yet in any nota: not cancelled, with
 * something paid, without an NFS-e of their own and in no month's NFS-e.
 */
export function registrationsToGroup(db: Conn, from: Date, to: Date, eventId?: number) {
  const paidAt = sql`coalesce(${charges.paidAt}, ${registrations.createdAt})`;
  return db
    .select({
      id: registrations.id,
      eventId: registrations.eventId,
      totalCents: registrations.totalCents,
    })
    .from(registrations)
    .innerJoin(charges, eq(charges.id, registrations.chargeId))
    .where(
      and(
        eventId === undefined ? undefined : eq(registrations.eventId, eventId),
        isNull(registrations.cancelledAt),
        sql`${registrations.totalCents} > 0`,
        gte(paidAt, from),
        lt(paidAt, to),
        sql`not exists (select 1 from ${fiscalDocuments} where ${fiscalDocuments.registrationId} = ${registrations.id})`,
        sql`not exists (select 1 from ${fiscalDocumentRegistrations} where ${fiscalDocumentRegistrations.registrationId} = ${registrations.id})`,
      ),
    )
    .orderBy(asc(registrations.id));
}

/** Puts registrations in a month's NFS-e; one already in another nota is skipped (its primary key). */
export async function linkRegistrations(
  tx: Tx,
  documentId: number,
  rows: Array<{ id: number; totalCents: number }>,
) {
  if (!rows.length) return [];
  return tx
    .insert(fiscalDocumentRegistrations)
    .values(rows.map((r) => ({ documentId, registrationId: r.id, amountCents: r.totalCents })))
    .onConflictDoNothing()
    .returning();
}

/** The registrations a month's NFS-e covers, with whether each was cancelled since. */
export function linksOf(db: Conn, documentId: number) {
  return db
    .select({
      registrationId: fiscalDocumentRegistrations.registrationId,
      amountCents: fiscalDocumentRegistrations.amountCents,
      cancelledAt: registrations.cancelledAt,
    })
    .from(fiscalDocumentRegistrations)
    .innerJoin(registrations, eq(registrations.id, fiscalDocumentRegistrations.registrationId))
    .where(eq(fiscalDocumentRegistrations.documentId, documentId))
    .orderBy(asc(fiscalDocumentRegistrations.registrationId));
}

export async function unlinkRegistrations(db: Conn, registrationIds: number[]) {
  if (!registrationIds.length) return;
  await db
    .delete(fiscalDocumentRegistrations)
    .where(inArray(fiscalDocumentRegistrations.registrationId, registrationIds));
}

/** The month's NFS-e that covers a registration, if any. */
export async function groupedDocumentOf(db: Conn, registrationId: number) {
  const [row] = await db
    .select({ document: fiscalDocuments, amountCents: fiscalDocumentRegistrations.amountCents })
    .from(fiscalDocumentRegistrations)
    .innerJoin(fiscalDocuments, eq(fiscalDocuments.id, fiscalDocumentRegistrations.documentId))
    .where(eq(fiscalDocumentRegistrations.registrationId, registrationId));
  return row;
}

/** The months' NFS-e of `period` (aaaa-mm), with the event's name and how many registrations each covers. */
export function monthDocuments(db: Conn, period: string) {
  return db
    .select({
      id: fiscalDocuments.id,
      eventId: fiscalDocuments.eventId,
      eventName: events.name,
      status: fiscalDocuments.status,
      reason: fiscalDocuments.reason,
      providerNumber: fiscalDocuments.providerNumber,
      amountCents: fiscalDocuments.amountCents,
      accessToken: fiscalDocuments.accessToken,
      kind: fiscalDocuments.kind,
      registrations: sql<number>`(select count(*)::int from ${fiscalDocumentRegistrations} where ${fiscalDocumentRegistrations.documentId} = ${fiscalDocuments.id})`,
    })
    .from(fiscalDocuments)
    .innerJoin(events, eq(events.id, fiscalDocuments.eventId))
    .where(eq(fiscalDocuments.period, period))
    .orderBy(asc(fiscalDocuments.id));
}

/**
 * Records that a registration waits for its (event, month) NFS-e (docs/decisions/0049, later); once.
 */
export async function recordWait(tx: Tx, row: { registrationId: number; eventId: number; period: string }) {
  await tx.insert(fiscalRegistrationWaits).values(row).onConflictDoNothing();
}

/** A registration still waiting: recorded, not cancelled, something paid, and in no nota at all. */
const stillWaiting = and(
  isNull(registrations.cancelledAt),
  sql`${registrations.totalCents} > 0`,
  sql`not exists (select 1 from ${fiscalDocuments} where ${fiscalDocuments.registrationId} = ${fiscalRegistrationWaits.registrationId})`,
  sql`not exists (select 1 from ${fiscalDocumentRegistrations} where ${fiscalDocumentRegistrations.registrationId} = ${fiscalRegistrationWaits.registrationId})`,
);
/** Whether the (event, month) NFS-e a waiting registration was waiting for has been made. */
const monthNotaMade = sql`exists (select 1 from ${fiscalDocuments} where ${fiscalDocuments.eventId} = ${fiscalRegistrationWaits.eventId} and ${fiscalDocuments.period} = ${fiscalRegistrationWaits.period})`;

/**
 * Registrations still waiting that are to get an NFS-e of their own: with `onlyMonthNotaMade` (the
 * setting is still event_month), those whose month's nota was made without them; otherwise (the
 * setting went back to registration) every one.
 */
export function waitingForOwnNota(db: Conn, onlyMonthNotaMade: boolean, limit: number) {
  return db
    .select({
      id: registrations.id,
      orderId: registrations.orderId,
      totalCents: registrations.totalCents,
    })
    .from(fiscalRegistrationWaits)
    .innerJoin(registrations, eq(registrations.id, fiscalRegistrationWaits.registrationId))
    .where(and(stillWaiting, onlyMonthNotaMade ? monthNotaMade : undefined))
    .orderBy(asc(fiscalRegistrationWaits.registrationId))
    .limit(limit);
}

/** The months before `before` (aaaa-mm) with registrations still waiting and no nota made for their event. */
export async function monthsLeftBehind(db: Conn, before: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ period: fiscalRegistrationWaits.period })
    .from(fiscalRegistrationWaits)
    .innerJoin(registrations, eq(registrations.id, fiscalRegistrationWaits.registrationId))
    .where(and(stillWaiting, lt(fiscalRegistrationWaits.period, before), sql`not ${monthNotaMade}`))
    .orderBy(asc(fiscalRegistrationWaits.period));
  return rows.map((r) => r.period);
}

export async function eventName(db: Conn, eventId: number) {
  const [row] = await db.select({ name: events.name }).from(events).where(eq(events.id, eventId));
  return row?.name;
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
      eventId: registrations.eventId,
      eventName: events.name,
      /** When it was paid (the charge's, as the month's nota dates it), or when it was made. */
      paidAt: sql<Date>`coalesce(${charges.paidAt}, ${registrations.createdAt})`.mapWith(
        registrations.createdAt,
      ),
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .leftJoin(charges, eq(charges.id, registrations.chargeId))
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
  // A month's NFS-e of an event, listed under each of the account's registrations it covers.
  const ofMonths = await db
    .select({ ...summary, registrationId: fiscalDocumentRegistrations.registrationId })
    .from(fiscalDocumentRegistrations)
    .innerJoin(fiscalDocuments, eq(fiscalDocuments.id, fiscalDocumentRegistrations.documentId))
    .innerJoin(registrations, eq(registrations.id, fiscalDocumentRegistrations.registrationId))
    .where(eq(registrations.accountUserId, userId));
  return [...ofOrders, ...ofRegistrations, ...ofMonths].sort((a, b) => a.id - b.id);
}
