import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { and, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, registrations } from '../../db/schema/index.ts';

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
