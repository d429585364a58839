import { and, asc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  charges,
  eventCategories,
  events,
  fiscalDocumentRegistrations,
  fiscalDocuments,
  fiscalRegistrationWaits,
  orderExchangeItems,
  orderItems,
  orderReturnItems,
  orderReturns,
  orders,
  registrations,
  teamPlaceBatches,
  teams,
  users,
} from '../../db/schema/index.ts';
import { type DocumentSummary, summary } from './fiscal.repository.ts';

/**
 * The fiscal sale read model (docs/architecture.md §9, rule 11): the sale a nota describes, read across
 * the modules that made it and never written: orders, their items, returns and exchanges, payments'
 * charges (when a registration was paid), registrations, events (name and city) and the buyer's name
 * and e-mail (docs/decisions/0043). The fiscal module's own tables are in fiscal.repository.ts; here
 * they appear only joined to the sale.
 */

type Conn = Db | Tx;

// ---- the sale of a nota ----

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
      eventCity: events.city,
      eventState: events.state,
      /** The event's own NFS-e codes ('' uses the settings', docs/decisions/0059, later). */
      eventNationalCode: events.nfseNationalCode,
      eventNbs: events.nfseNbs,
      /** The delivery address of the order that paid it, if any (the NFS-e's taker address). */
      orderAddress: orders.address,
      /** When it was paid (the charge's, as the month's nota dates it), or when it was made. */
      paidAt: sql<Date>`coalesce(${charges.paidAt}, ${registrations.createdAt})`.mapWith(
        registrations.createdAt,
      ),
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .leftJoin(charges, eq(charges.id, registrations.chargeId))
    .leftJoin(orders, eq(orders.id, registrations.orderId))
    .where(eq(registrations.id, registrationId));
  return row;
}

/**
 * A team's places bought in one payment (docs/decisions/0077): the batch, what its charge was paid and
 * what went back, the company it asked the nota for (in the charge's draft), the captain, the team and the race.
 */
export async function teamPlacesForNota(db: Conn, batchId: number) {
  const [row] = await db
    .select({
      id: teamPlaceBatches.id,
      quantity: teamPlaceBatches.quantity,
      /** The share of each place the purchase paid (decision 0079; 100: the whole place). */
      sharePercent: teamPlaceBatches.sharePercent,
      amountCents: charges.amountCents,
      /** What went back to the captain for places nobody claimed (decision 0073). */
      refundedCents: teamPlaceBatches.refundedCents,
      unclaimedAtClose: teamPlaceBatches.unclaimedAtClose,
      draft: charges.draft,
      captainName: users.fullName,
      captainEmail: users.email,
      teamName: teams.name,
      categoryName: eventCategories.name,
      eventName: events.name,
      eventCity: events.city,
      eventState: events.state,
      eventNationalCode: events.nfseNationalCode,
      eventNbs: events.nfseNbs,
    })
    .from(teamPlaceBatches)
    .innerJoin(charges, eq(charges.id, teamPlaceBatches.chargeId))
    .innerJoin(teams, eq(teams.id, teamPlaceBatches.teamId))
    .innerJoin(events, eq(events.id, teamPlaceBatches.eventId))
    .innerJoin(eventCategories, eq(eventCategories.id, teamPlaceBatches.categoryId))
    .leftJoin(users, eq(users.id, charges.userId))
    .where(eq(teamPlaceBatches.id, batchId));
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

/** An exchange's replacement units (read only): what its NF-e lists, at the price the buyer paid for them. */
export async function exchangeItemsForNota(db: Conn, returnId: number) {
  return db
    .select()
    .from(orderExchangeItems)
    .where(eq(orderExchangeItems.returnId, returnId))
    .orderBy(asc(orderExchangeItems.id));
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
  // A team's places the account bought as captain (docs/decisions/0077).
  const ofTeamPlaces = await db
    .select(summary)
    .from(fiscalDocuments)
    .innerJoin(teamPlaceBatches, eq(teamPlaceBatches.id, fiscalDocuments.teamBatchId))
    .innerJoin(charges, eq(charges.id, teamPlaceBatches.chargeId))
    .where(eq(charges.userId, userId));
  return [...ofOrders, ...ofRegistrations, ...ofMonths, ...ofTeamPlaces].sort((a, b) => a.id - b.id);
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

/**
 * The event's city and state (where the registrations' service tax is due) and its own NFS-e codes
 * ('' uses the settings', docs/decisions/0059, later).
 */
export async function eventPlace(db: Conn, eventId: number) {
  const [row] = await db
    .select({
      city: events.city,
      state: events.state,
      nationalCode: events.nfseNationalCode,
      nbs: events.nfseNbs,
    })
    .from(events)
    .where(eq(events.id, eventId));
  return row;
}
