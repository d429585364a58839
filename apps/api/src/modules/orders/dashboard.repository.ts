import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { and, gte, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chargeRefunds, orders, registrations } from '../../db/schema/index.ts';

/**
 * Read-only figures for the dashboard, summed in the database: shop sales are orders not cancelled
 * (by payment date), less the registrations a cart paid inside them; registration sales are
 * registrations not cancelled (by creation), however paid; both per store calendar day. A cancelled
 * order's registrations are cancelled with it, so nothing returned is counted on either side.
 */
// A literal, not a bound parameter: the same expression in SELECT and GROUP BY must be the same text.
const zone = sql.raw(`'${STORE_TIME_ZONE}'`);

export async function dailySales(db: Db, since: Date) {
  const shopDay = sql<string>`to_char(${orders.orderDate} at time zone ${zone}, 'YYYY-MM-DD')`;
  // A mixed cart's registrations count once, as registrations (docs/decisions/0020).
  const inOrder = sql`coalesce((select sum(r.total_cents) from ${registrations} r where r.order_id = ${orders.id}), 0)`;
  const shop = await db
    .select({ day: shopDay, cents: sql<number>`sum(${orders.totalCents} - ${inOrder})::int` })
    .from(orders)
    .where(sql`${gte(orders.orderDate, since)} and ${ne(orders.status, 'cancelado')}`)
    .groupBy(shopDay);
  const regDay = sql<string>`to_char(${registrations.createdAt} at time zone ${zone}, 'YYYY-MM-DD')`;
  const regs = await db
    .select({ day: regDay, cents: sql<number>`sum(${registrations.totalCents})::int` })
    .from(registrations)
    .where(and(gte(registrations.createdAt, since), isNull(registrations.cancelledAt)))
    .groupBy(regDay);
  return { shop, regs };
}

/**
 * What a charge gave back: the sum of its refund rows that did not fail, so one refund per charge and
 * several partial ones add up alike.
 */
export const refundedCents = (chargeId: SQL) =>
  sql`coalesce((select sum(${chargeRefunds.amountCents}) from ${chargeRefunds} where ${chargeRefunds.chargeId} = ${chargeId} and ${chargeRefunds.status} <> 'NAO_REALIZADO'), 0)`;

/** Orders paid since `since` (cancelled ones too: their money came in), their total and what went back. */
export async function orderTotals(db: Db, since: Date) {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      grossCents: sql<number>`coalesce(sum(${orders.totalCents}), 0)::int`,
      refundedCents: sql<number>`coalesce(sum(${refundedCents(sql`${orders.chargeId}`)}), 0)::int`,
    })
    .from(orders)
    .where(gte(orders.orderDate, since));
  return row ?? { count: 0, grossCents: 0, refundedCents: 0 };
}
