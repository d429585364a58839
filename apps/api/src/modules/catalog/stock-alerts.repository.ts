import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  colors,
  products,
  sizes,
  stock,
  stockAlertMarks,
  stockAlerts,
  stockMovements,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export interface Combo {
  productId: number;
  colorId: number;
  sizeId: number;
}

/** A new waiting alert; null when this address already waits for the combination (same answer). */
export async function insertAlert(tx: Tx, combo: Combo, email: string, at: Date) {
  const [row] = await tx
    .insert(stockAlerts)
    .values({ ...combo, email, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: stockAlerts.id });
  return row ?? null;
}

/** Combinations with someone waiting, with the units on sale now (`stock.quantity`: what is free to sell). */
export async function combosWaiting(tx: Tx) {
  return tx
    .selectDistinct({
      productId: stock.productId,
      colorId: stock.colorId,
      sizeId: stock.sizeId,
      units: stock.quantity,
    })
    .from(stockAlerts)
    .innerJoin(
      stock,
      and(
        eq(stock.productId, stockAlerts.productId),
        eq(stock.colorId, stockAlerts.colorId),
        eq(stock.sizeId, stockAlerts.sizeId),
      ),
    )
    .where(isNull(stockAlerts.notifiedAt));
}

/** Every unit that ever came (back) to a combination: the ledger's positive movements summed. */
async function arrivals(tx: Tx, combo: Combo): Promise<number> {
  const [row] = await tx
    .select({
      n: sql<number>`coalesce(sum(${stockMovements.delta}) filter (where ${stockMovements.delta} > 0), 0)::int`,
    })
    .from(stockMovements)
    .where(
      and(
        eq(stockMovements.productId, combo.productId),
        eq(stockMovements.colorId, combo.colorId),
        eq(stockMovements.sizeId, combo.sizeId),
      ),
    );
  return Number(row?.n ?? 0);
}

const markOf = (combo: Combo) =>
  and(
    eq(stockAlertMarks.productId, combo.productId),
    eq(stockAlertMarks.colorId, combo.colorId),
    eq(stockAlertMarks.sizeId, combo.sizeId),
  );

/**
 * The units that came back since the alerts last counted (under the mark's row lock, so two sweeps or a
 * sweep and a new line never count the same units twice), and the mark moved to now. With `fresh`, the
 * line starts now: what came before is not news.
 */
export async function countArrivals(tx: Tx, combo: Combo, opts: { fresh?: boolean } = {}): Promise<number> {
  await tx
    .insert(stockAlertMarks)
    .values({ ...combo, countedIn: 0 })
    .onConflictDoNothing();
  const [mark] = await tx.select().from(stockAlertMarks).where(markOf(combo)).for('update');
  const now = await arrivals(tx, combo);
  await tx.update(stockAlertMarks).set({ countedIn: now }).where(markOf(combo));
  return opts.fresh ? 0 : Math.max(0, now - (mark?.countedIn ?? now));
}

/** Whether anyone waits for the combination now. */
export async function anyoneWaiting(tx: Tx, combo: Combo): Promise<boolean> {
  const [row] = await tx
    .select({ id: stockAlerts.id })
    .from(stockAlerts)
    .where(
      and(
        eq(stockAlerts.productId, combo.productId),
        eq(stockAlerts.colorId, combo.colorId),
        eq(stockAlerts.sizeId, combo.sizeId),
        isNull(stockAlerts.notifiedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Marks the oldest `count` waiting alerts of a combination told, first come first served; rows another
 * process is marking are skipped (it tells them). Answers the ids marked.
 */
export async function takeFirstWaiting(tx: Tx, combo: Combo, count: number, at: Date): Promise<number[]> {
  const rows = (await tx.execute(sql`
    update ${stockAlerts} set notified_at = ${at}
     where id in (
       select id from ${stockAlerts}
        where product_id = ${combo.productId} and color_id = ${combo.colorId} and size_id = ${combo.sizeId}
          and notified_at is null
        order by created_at, id
        limit ${count}
        for update skip locked)
     returning id`)) as unknown as { rows: Array<{ id: number }> };
  return rows.rows.map((r) => r.id);
}

/** An alert with the names its e-mail shows. */
export async function alertForMail(db: Conn, id: number) {
  const [row] = await db
    .select({
      email: stockAlerts.email,
      productId: stockAlerts.productId,
      productName: products.name,
      color: colors.name,
      size: sizes.name,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .innerJoin(colors, eq(colors.id, stockAlerts.colorId))
    .innerJoin(sizes, eq(sizes.id, stockAlerts.sizeId))
    .where(eq(stockAlerts.id, id));
  return row;
}

/** Told alerts older than `before` are kept no longer: the address was only for that one message. */
export async function deleteToldBefore(tx: Tx, before: Date) {
  await tx
    .delete(stockAlerts)
    .where(and(isNotNull(stockAlerts.notifiedAt), lt(stockAlerts.notifiedAt, before)));
}

/** An erased account's alerts go with it (decision 0061). */
export async function deleteOfEmail(tx: Tx, email: string) {
  await tx.delete(stockAlerts).where(sql`lower(${stockAlerts.email}) = lower(${email})`);
}

/** How many wait for each combination of a product, oldest first, for the tests and the back office. */
export function waitingOf(db: Conn, productId: number) {
  return db
    .select({ colorId: stockAlerts.colorId, sizeId: stockAlerts.sizeId, email: stockAlerts.email })
    .from(stockAlerts)
    .where(and(eq(stockAlerts.productId, productId), isNull(stockAlerts.notifiedAt)))
    .orderBy(asc(stockAlerts.createdAt), asc(stockAlerts.id));
}
