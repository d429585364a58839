import { and, asc, desc, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { inIds, prepared } from '../../db/prepared.ts';
import { colors, products, sizes, stock, stockMovements, stockReservations } from '../../db/schema/index.ts';
import { CATALOG_CHANGED, type Conn, notifyChanged } from './catalog-changed.ts';

/** Stock per colour × size, the carts' reservations of it and its history (docs/decisions/0033). */

export interface StockRow {
  productId: number;
  quantity: number;
  colorId: number;
  colorName: string;
  colorHex: string;
  sizeId: number;
  sizeName: string;
}

const stockColumns = {
  productId: stock.productId,
  quantity: stock.quantity,
  colorId: colors.id,
  colorName: colors.name,
  colorHex: colors.hex,
  sizeId: sizes.id,
  sizeName: sizes.name,
};
const stockOrder = [asc(stock.productId), asc(colors.id), asc(sizes.sortOrder), asc(sizes.id)];
const stockByProducts = prepared('stock_by_products', (c) =>
  c
    .select(stockColumns)
    .from(stock)
    .innerJoin(colors, eq(colors.id, stock.colorId))
    .innerJoin(sizes, eq(sizes.id, stock.sizeId))
    .where(inIds(stock.productId))
    .orderBy(...stockOrder),
);
const stockLine = and(
  eq(stock.productId, sql.placeholder('productId')),
  eq(stock.colorId, sql.placeholder('colorId')),
  eq(stock.sizeId, sql.placeholder('sizeId')),
);
// The notification rides on the row changed (one round trip): it is sent when the transaction
// commits, and never when nothing changed or the transaction rolls back.
const stockTaken = prepared('stock_take', (c) =>
  c
    .update(stock)
    .set({ quantity: sql`${stock.quantity} - ${sql.placeholder('quantity')}` })
    .where(and(stockLine, gte(stock.quantity, sql.placeholder('quantity'))))
    .returning({ quantity: stock.quantity, notified: sql`pg_notify(${CATALOG_CHANGED}, '')` }),
);
const stockGivenBack = prepared('stock_give_back', (c) =>
  c
    .update(stock)
    .set({ quantity: sql`${stock.quantity} + ${sql.placeholder('quantity')}` })
    .where(stockLine)
    .returning({ quantity: stock.quantity, notified: sql`pg_notify(${CATALOG_CHANGED}, '')` }),
);

export async function findStock(
  db: Conn,
  productIds: number[],
  only: { colorId?: number; sizeId?: number } = {},
): Promise<StockRow[]> {
  if (!productIds.length) return [];
  if (only.colorId === undefined && only.sizeId === undefined)
    return stockByProducts(db).execute({ ids: productIds });
  const where: SQL[] = [inArray(stock.productId, productIds)];
  if (only.colorId !== undefined) where.push(eq(stock.colorId, only.colorId));
  if (only.sizeId !== undefined) where.push(eq(stock.sizeId, only.sizeId));
  return db
    .select(stockColumns)
    .from(stock)
    .innerJoin(colors, eq(colors.id, stock.colorId))
    .innerJoin(sizes, eq(sizes.id, stock.sizeId))
    .where(and(...where))
    .orderBy(...stockOrder);
}

export async function insertStock(
  db: Conn,
  rows: Array<{ productId: number; colorId: number; sizeId: number; quantity: number }>,
): Promise<void> {
  if (!rows.length) return;
  await db.insert(stock).values(rows);
  // A combination's history starts with what it came with, so its movements add up to its stock.
  await insertStockMovements(
    db,
    rows
      .filter((r) => r.quantity !== 0)
      .map((r) => ({ ...r, delta: r.quantity, quantityAfter: r.quantity, reason: 'saldo_inicial' as const })),
  );
  await notifyChanged(db);
}

export interface StockLine {
  productId: number;
  colorId: number;
  sizeId: number;
  quantity: number;
}

/**
 * Takes `quantity` units of one combination in one conditional statement: under concurrency the row
 * lock makes later buyers re-check `quantity >= n` against the winner's result, so stock never
 * goes below what was really there. False when there were not enough units.
 */
export async function takeStock(tx: Tx, line: StockLine): Promise<number | undefined> {
  const [row] = await stockTaken(tx).execute({ ...line });
  return row?.quantity;
}

/** Puts units back; answers the quantity after (undefined when the combination is gone). */
export async function giveBackStock(tx: Tx, line: StockLine): Promise<number | undefined> {
  const [row] = await stockGivenBack(tx).execute({ ...line });
  return row?.quantity;
}

/**
 * Takes `quantity` units off what a charge still holds of one combination (a return of part of a
 * sale), releasing each line it empties; false (and nothing changed) when the charge holds fewer units.
 * A charge may hold one combination on several lines (a unit swapped before shipping to a colour and
 * size the order already had): they are locked and taken from together, the newest first.
 */
export async function shrinkReservation(
  tx: Tx,
  chargeId: number,
  line: StockLine,
  now: Date,
): Promise<boolean> {
  const held = await tx
    .select({ id: stockReservations.id, quantity: stockReservations.quantity })
    .from(stockReservations)
    .where(
      and(
        eq(stockReservations.chargeId, chargeId),
        eq(stockReservations.productId, line.productId),
        eq(stockReservations.colorId, line.colorId),
        eq(stockReservations.sizeId, line.sizeId),
        isNull(stockReservations.releasedAt),
      ),
    )
    .orderBy(desc(stockReservations.id))
    .for('update');
  if (held.reduce((n, r) => n + r.quantity, 0) < line.quantity) return false;
  let left = line.quantity;
  for (const row of held) {
    if (left === 0) break;
    const take = Math.min(left, row.quantity);
    await tx
      .update(stockReservations)
      .set({ quantity: row.quantity - take, releasedAt: take === row.quantity ? now : null })
      .where(eq(stockReservations.id, row.id));
    left -= take;
  }
  return true;
}

/**
 * A charge's hold written in one statement: its reservations and their `reserva` movements (each
 * line with the stock left after it was taken), on the paying path where every round trip counts.
 */
export async function insertHold(
  tx: Tx,
  chargeId: number,
  lines: Array<StockLine & { quantityAfter: number }>,
): Promise<void> {
  if (!lines.length) return;
  const column = (f: (l: (typeof lines)[number]) => number) => sql.param(lines.map(f));
  await tx.execute(sql`
    with held as (
      insert into ${stockReservations} (charge_id, product_id, color_id, size_id, quantity)
      select ${chargeId}::int, p, c, s, q
      from unnest(${column((l) => l.productId)}::int[], ${column((l) => l.colorId)}::int[],
        ${column((l) => l.sizeId)}::int[], ${column((l) => l.quantity)}::int[]) as t(p, c, s, q)
    )
    insert into ${stockMovements} (product_id, color_id, size_id, delta, quantity_after, reason, charge_id)
    select p, c, s, -q, a, 'reserva', ${chargeId}::int
    from unnest(${column((l) => l.productId)}::int[], ${column((l) => l.colorId)}::int[],
      ${column((l) => l.sizeId)}::int[], ${column((l) => l.quantity)}::int[],
      ${column((l) => l.quantityAfter)}::int[]) as t(p, c, s, q, a)`);
}

/**
 * Marks the charge's held units as released and answers them, once: a second call (or a concurrent
 * one, after the row locks) finds nothing left.
 */
export async function releaseReservations(tx: Tx, chargeId: number, now: Date): Promise<StockLine[]> {
  return tx
    .update(stockReservations)
    .set({ releasedAt: now })
    .where(and(eq(stockReservations.chargeId, chargeId), isNull(stockReservations.releasedAt)))
    .returning({
      productId: stockReservations.productId,
      colorId: stockReservations.colorId,
      sizeId: stockReservations.sizeId,
      quantity: stockReservations.quantity,
    });
}

export async function insertMissingCombos(
  db: Conn,
  rows: Array<{ productId: number; colorId: number; sizeId: number }>,
): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(stock)
    .values(rows.map((r) => ({ ...r, quantity: 0 })))
    .onConflictDoNothing();
  await notifyChanged(db);
}

/**
 * Adds a signed amount in one statement; the row lock orders it with concurrent reservations, so
 * neither loses the other's units. Undefined when the combination does not exist or would go
 * below zero.
 */
export async function addToStock(
  tx: Tx,
  combo: { productId: number; colorId: number; sizeId: number },
  delta: number,
): Promise<number | undefined> {
  const [row] = await tx
    .update(stock)
    .set({ quantity: sql`${stock.quantity} + ${delta}` })
    .where(
      and(
        eq(stock.productId, combo.productId),
        eq(stock.colorId, combo.colorId),
        eq(stock.sizeId, combo.sizeId),
        gte(sql`${stock.quantity} + ${delta}`, 0),
      ),
    )
    .returning({ quantity: stock.quantity });
  await notifyChanged(tx);
  return row?.quantity;
}

export async function lockStockRow(
  tx: Tx,
  combo: { productId: number; colorId: number; sizeId: number },
): Promise<number | undefined> {
  const [row] = await tx
    .select({ quantity: stock.quantity })
    .from(stock)
    .where(
      and(
        eq(stock.productId, combo.productId),
        eq(stock.colorId, combo.colorId),
        eq(stock.sizeId, combo.sizeId),
      ),
    )
    .for('update');
  return row?.quantity;
}

/**
 * Every colour × size with its product's, colour's and size's names: all of them (the stock export and
 * the import's lookup), or only the visible products' at or below `atMost` units (low stock, fewest first).
 */
export async function findStockLines(db: Conn, only?: { atMost: number }) {
  return db
    .select({
      productId: stock.productId,
      productName: products.name,
      colorId: colors.id,
      color: colors.name,
      sizeId: sizes.id,
      size: sizes.name,
      quantity: stock.quantity,
    })
    .from(stock)
    .innerJoin(products, eq(products.id, stock.productId))
    .innerJoin(colors, eq(colors.id, stock.colorId))
    .innerJoin(sizes, eq(sizes.id, stock.sizeId))
    .where(
      only
        ? and(lte(stock.quantity, only.atMost), eq(products.hidden, false), eq(products.draft, false))
        : undefined,
    )
    .orderBy(
      ...(only ? [asc(stock.quantity)] : []),
      asc(products.name),
      asc(products.id),
      asc(colors.name),
      asc(sizes.sortOrder),
    );
}

/** Locks stock rows always in the same order, so two carts (or a cart and a receipt) cannot deadlock. */
export const byCombo = (
  a: { productId: number; colorId: number; sizeId: number },
  b: { productId: number; colorId: number; sizeId: number },
) => a.productId - b.productId || a.colorId - b.colorId || a.sizeId - b.sizeId;

export type NewStockMovement = typeof stockMovements.$inferInsert;

/** One line of stock history, written in the transaction that changed the stock. */
export async function insertStockMovement(db: Conn, row: NewStockMovement): Promise<void> {
  await db.insert(stockMovements).values(row);
}

/** Several lines of stock history in one statement (a cart's hold or release). */
export async function insertStockMovements(db: Conn, rows: NewStockMovement[]): Promise<void> {
  if (rows.length) await db.insert(stockMovements).values(rows);
}

/**
 * The sale of what a charge holds: one movement of 0 units per held combination (the units left the
 * stock with the hold), linked to the order, with the stock as it stands. One statement.
 */
export async function insertSaleMovements(tx: Tx, chargeId: number, orderId: number): Promise<void> {
  await tx.execute(sql`
    insert into ${stockMovements} (product_id, color_id, size_id, delta, quantity_after, reason, note, charge_id, order_id)
    select r.product_id, r.color_id, r.size_id, 0, s.quantity, 'venda',
      r.quantity || ' unidade(s) reservada(s) vendida(s)', r.charge_id, ${orderId}
    from ${stockReservations} r
    join ${stock} s on s.product_id = r.product_id and s.color_id = r.color_id and s.size_id = r.size_id
    where r.charge_id = ${chargeId} and r.released_at is null
    order by r.id`);
}
