import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { eventAfterSaleRules, registrations } from '../../db/schema/index.ts';

type Conn = Db | Tx;

const referrer = alias(registrations, 'referrer');

/**
 * A referred registration that counts for its referrer (docs/decisions/0086): standing, paid, of another
 * CPF, account and charge than the referrer's. `counted` adds that it was paid before `before` (its
 * withdrawal days passed); the rest are `waiting`.
 */
const counts = and(
  isNull(registrations.cancelledAt),
  sql`${registrations.totalCents} > 0`,
  sql`${registrations.cpf} <> ${referrer.cpf}`,
  sql`${registrations.accountUserId} is distinct from ${referrer.accountUserId}`,
  sql`${registrations.chargeId} <> ${referrer.chargeId}`,
);

/** Per referrer of `ids`: the referrals counted and those still in their withdrawal days. */
export async function referredCounts(
  db: Conn,
  ids: number[],
  before: Date,
): Promise<Map<number, { counted: number; waiting: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: referrer.id,
      counted: sql<number>`count(*) filter (where ${registrations.createdAt} <= ${before})::int`,
      waiting: sql<number>`count(*) filter (where ${registrations.createdAt} > ${before})::int`,
    })
    .from(registrations)
    .innerJoin(referrer, eq(referrer.id, registrations.referredById))
    .where(and(inArray(referrer.id, ids), counts))
    .groupBy(referrer.id);
  return new Map(rows.map((r) => [r.id, { counted: r.counted, waiting: r.waiting }]));
}

/** The standing referrers with no rebate yet whose counted referrals reached their event's minimum. */
export async function referrersDue(db: Conn, before: Date): Promise<Array<{ id: number }>> {
  return db
    .select({ id: referrer.id })
    .from(registrations)
    .innerJoin(referrer, eq(referrer.id, registrations.referredById))
    .innerJoin(eventAfterSaleRules, eq(eventAfterSaleRules.eventId, referrer.eventId))
    .where(
      and(
        counts,
        sql`${registrations.createdAt} <= ${before}`,
        isNull(referrer.cancelledAt),
        isNull(referrer.referralRebatedAt),
        isNotNull(eventAfterSaleRules.referralMin),
        sql`${eventAfterSaleRules.referralPercent} > 0`,
      ),
    )
    .groupBy(referrer.id, eventAfterSaleRules.referralMin)
    .having(sql`count(*) >= ${eventAfterSaleRules.referralMin}`)
    .orderBy(referrer.id);
}

/** What a link's registration says about referring (read in the new registration's transaction). */
export async function findReferrer(tx: Tx, id: number) {
  const [row] = await tx
    .select({
      id: registrations.id,
      eventId: registrations.eventId,
      cpf: registrations.cpf,
      accountUserId: registrations.accountUserId,
      totalCents: registrations.totalCents,
      cancelledAt: registrations.cancelledAt,
    })
    .from(registrations)
    .where(eq(registrations.id, id));
  return row ?? null;
}

/** The referrer's row, locked: one rebate at a time, and never beside a cancellation of it. */
export async function lockReferrer(tx: Tx, id: number) {
  const [row] = await tx
    .select({
      id: registrations.id,
      eventId: registrations.eventId,
      chargeId: registrations.chargeId,
      totalCents: registrations.totalCents,
      cancelledAt: registrations.cancelledAt,
      referralRebatedAt: registrations.referralRebatedAt,
    })
    .from(registrations)
    .where(eq(registrations.id, id))
    .for('update');
  return row ?? null;
}

/** The rebate settled: when, how much, and the registration's total lowered by it. */
export async function markRebated(tx: Tx, id: number, at: Date, totalCents: number, rebateCents: number) {
  await tx
    .update(registrations)
    .set({ referralRebatedAt: at, referralRebateCents: rebateCents, totalCents })
    .where(eq(registrations.id, id));
}
