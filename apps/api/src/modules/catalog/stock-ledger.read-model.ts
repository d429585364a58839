/**
 * The stock ledger as staff read it: each movement with the e-mail of the staff member who made it and
 * the order its charge became. It reads the staff and orders tables, which it never writes
 * (docs/architecture.md §9, rule 11).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orders, staff, stockMovements } from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** A colour × size's movements, newest first, with the e-mail of who made each (the staff table is only read). */
export function listStockMovements(db: Conn, combo: { productId: number; colorId: number; sizeId: number }) {
  return db
    .select({
      id: stockMovements.id,
      delta: stockMovements.delta,
      quantityAfter: stockMovements.quantityAfter,
      reason: stockMovements.reason,
      note: stockMovements.note,
      staffEmail: staff.email,
      // A hold or a release links to the order its charge became, when it became one.
      orderId: sql<number | null>`coalesce(${stockMovements.orderId}, ${orders.id})`,
      at: stockMovements.at,
    })
    .from(stockMovements)
    .leftJoin(staff, eq(staff.id, stockMovements.staffId))
    .leftJoin(orders, eq(orders.chargeId, stockMovements.chargeId))
    .where(
      and(
        eq(stockMovements.productId, combo.productId),
        eq(stockMovements.colorId, combo.colorId),
        eq(stockMovements.sizeId, combo.sizeId),
      ),
    )
    .orderBy(desc(stockMovements.at), desc(stockMovements.id));
}
