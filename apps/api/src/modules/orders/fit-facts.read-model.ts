import type { FitFacts } from '@passada/core/fit';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  orderDeliveries,
  orderExchangeItems,
  orderItems,
  orderReturns,
  sizes,
} from '../../db/schema/index.ts';

/**
 * What the shop's own sales say of a product's fit (docs/decisions/0070): the units delivered, and the
 * units of finished exchanges (`trocada`) that went to a bigger or a smaller size of the same product, by
 * the sizes' order. A report across the orders' tables and the catalogue's sizes (a declared dependency).
 */
export async function fitFacts(db: Db, productId: number): Promise<FitFacts> {
  const delivered = (await db.execute(sql`
    select coalesce(sum(${orderItems.quantity}), 0)::int as n
      from ${orderItems}
      join ${orderDeliveries} on ${orderDeliveries.orderId} = ${orderItems.orderId}
     where ${orderItems.productId} = ${productId}`)) as unknown as { rows: Array<{ n: number }> };
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
  return {
    delivered: Number(delivered.rows[0]?.n ?? 0),
    toBigger: Number(exchanged.rows[0]?.up ?? 0),
    toSmaller: Number(exchanged.rows[0]?.down ?? 0),
  };
}
