import type { FitFacts, FitVerdict } from '@passada/core/fit';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  orderDeliveries,
  orderExchangeItems,
  orderItems,
  orderReturns,
  orders,
  productReviews,
  sizes,
} from '../../db/schema/index.ts';

/**
 * What the shop's own sales say of a product's fit (docs/decisions/0070): the units delivered, the
 * units of finished exchanges (`trocada`) that went to a bigger or a smaller size of the same product, by
 * the sizes' order, and the fit answers of its published reviews (0071). A report across the orders' tables and the catalogue's sizes (a declared dependency).
 */
export async function fitFacts(db: Db, productId: number): Promise<FitFacts> {
  // Delivered: marked `entregue` by staff, or a delivery the carrier's tracking recorded.
  const delivered = (await db.execute(sql`
    select coalesce(sum(${orderItems.quantity}), 0)::int as n
      from ${orderItems}
      join ${orders} on ${orders.id} = ${orderItems.orderId}
     where ${orderItems.productId} = ${productId}
       and (${orders.status} = 'entregue'
            or exists (select 1 from ${orderDeliveries} where ${orderDeliveries.orderId} = ${orders.id}))`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  const exchanged = (await db.execute(sql`
    select coalesce(sum(case when ns.sort_order > os.sort_order then x.quantity end), 0)::int as up,
           coalesce(sum(case when ns.sort_order < os.sort_order then x.quantity end), 0)::int as down
      from ${orderExchangeItems} x
      join ${orderReturns} r on r.id = x.return_id and r.status = 'trocada'
      join ${orderItems} oi on oi.id = x.order_item_id
      join ${sizes} os on os.id = oi.size_id
      join ${sizes} ns on ns.id = x.size_id
     where oi.product_id = ${productId} and x.product_id = ${productId}`)) as unknown as {
    rows: Array<{ up: number; down: number }>;
  };
  const said = (await db.execute(sql`
    select ${productReviews.fit} as fit, count(*)::int as n
      from ${productReviews}
     where ${productReviews.productId} = ${productId} and ${productReviews.status} = 'publicada'
       and ${productReviews.fit} is not null
     group by ${productReviews.fit}`)) as unknown as { rows: Array<{ fit: FitVerdict; n: number }> };
  const answers: Record<FitVerdict, number> = { pequeno: 0, no_tamanho: 0, grande: 0 };
  for (const r of said.rows) answers[r.fit] = Number(r.n);
  return {
    answers,
    delivered: Number(delivered.rows[0]?.n ?? 0),
    toBigger: Number(exchanged.rows[0]?.up ?? 0),
    toSmaller: Number(exchanged.rows[0]?.down ?? 0),
  };
}
