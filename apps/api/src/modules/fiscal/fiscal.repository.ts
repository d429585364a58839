import { and, asc, desc, eq, inArray, isNull, like, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  fiscalDocumentRegistrations,
  fiscalDocuments,
  fiscalRegistrationWaits,
  fiscalSettings,
  fiscalTaxRules,
  productFiscal,
} from '../../db/schema/index.ts';

/**
 * The fiscal module's SQL over its own tables: the `fiscal_*` and `product_fiscal` tables. The sale a
 * nota describes (orders, their items and returns, registrations, events, the buyer) is read in
 * fiscal-sale.read-model.ts (docs/decisions/0043).
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

const ownNfe = (orderId: number, ref: string) =>
  and(
    eq(fiscalDocuments.orderId, orderId),
    eq(fiscalDocuments.kind, 'nfe'),
    isNull(fiscalDocuments.returnId),
    or(eq(fiscalDocuments.ref, ref), like(fiscalDocuments.ref, `${ref}-%`)),
  );

/**
 * The order's own NF-e as it stands: the first one (`ref`), or the latest that replaced it after a swap
 * before shipping (`ref-2`, `ref-3`…); an exchange's NF-e (with a return) is not one of them.
 */
export async function currentOrderNfe(db: Conn, orderId: number, ref: string) {
  const [row] = await db
    .select()
    .from(fiscalDocuments)
    .where(ownNfe(orderId, ref))
    .orderBy(desc(fiscalDocuments.id))
    .limit(1);
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
export const summary = {
  id: fiscalDocuments.id,
  kind: fiscalDocuments.kind,
  ref: fiscalDocuments.ref,
  accessToken: fiscalDocuments.accessToken,
  orderId: fiscalDocuments.orderId,
  registrationId: fiscalDocuments.registrationId,
  returnId: fiscalDocuments.returnId,
  teamBatchId: fiscalDocuments.teamBatchId,
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

/**
 * Records that a registration waits for its (event, month) NFS-e (docs/decisions/0049, later); once.
 */
export async function recordWait(tx: Tx, row: { registrationId: number; eventId: number; period: string }) {
  await tx.insert(fiscalRegistrationWaits).values(row).onConflictDoNothing();
}

export function pendingDocuments(db: Conn, olderThan: Date) {
  return db
    .select({ id: fiscalDocuments.id })
    .from(fiscalDocuments)
    .where(and(eq(fiscalDocuments.status, 'pendente'), sql`${fiscalDocuments.updatedAt} < ${olderThan}`))
    .limit(200);
}
