import { and, asc, eq, exists, gt, gte, inArray, isNull, like, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { inIds, prepared } from '../../db/prepared.ts';
import {
  colors,
  homeBanners,
  productImages,
  products,
  sizes,
  stock,
  stockMovements,
  stockReservations,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;

export interface StockRow {
  productId: number;
  quantity: number;
  colorId: number;
  colorName: string;
  colorHex: string;
  sizeId: number;
  sizeName: string;
}

export interface ProductFilters {
  category?: ProductRow['category'];
  ids?: number[];
  /** Every word must appear in search_text (already in search form). */
  words?: string[];
  /** Every word must appear in the name, accents and case aside (already in search form). */
  nameWords?: string[];
  /** Only the home page's featured products, in the order staff chose (instead of by id). */
  featured?: boolean;
  minPriceCents?: number;
  maxPriceCents?: number;
  /** Lower-cased size names; the product needs stock > 0 in at least one. */
  sizeNames?: string[];
  /** Leaves out products the back office hid. */
  visibleOnly?: boolean;
}

/** The channel every catalogue write notifies; the answer cache of each server process listens. */
export const CATALOG_CHANGED = 'catalog_changed';

/**
 * Tells every process the catalogue changed. PostgreSQL delivers it when the caller's transaction
 * commits (and never when it rolls back), which is exactly when cached answers become old.
 */
async function notifyChanged(db: Conn): Promise<void> {
  await db.execute(sql`select pg_notify(${CATALOG_CHANGED}, '')`);
}

// What toSearchText (core/text) strips, for matching a column in SQL without the unaccent extension.
const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñ';
const PLAIN = 'aaaaaeeeeiiiiooooouuuucn';

/** `%` and `_` are wildcards in LIKE; a search for "100%" means the characters. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// A cart's products, their photos and their stock: read on every charge, built once (db/prepared.ts).
const productsByIds = prepared('products_by_ids', (c) =>
  c.select().from(products).where(inIds(products.id)).orderBy(asc(products.id)),
);
const imagesByProducts = prepared('product_images_by_products', (c) =>
  c
    .select({
      productId: productImages.productId,
      position: productImages.position,
      url: productImages.url,
      alt: productImages.alt,
      colorId: productImages.colorId,
    })
    .from(productImages)
    // A photo still being resized (or that failed) has no files to show yet (docs/decisions/0027).
    .where(and(inIds(productImages.productId), eq(productImages.status, 'pronta')))
    .orderBy(asc(productImages.productId), asc(productImages.position)),
);
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

/** Products by id, hidden ones included (a cart, an order, the back office), in id order. */
export async function findProductsByIds(db: Conn, ids: number[]): Promise<ProductRow[]> {
  if (!ids.length) return [];
  return productsByIds(db).execute({ ids });
}

export async function findProducts(db: Conn, filters: ProductFilters = {}): Promise<ProductRow[]> {
  const where: SQL[] = [];
  if (filters.category) where.push(eq(products.category, filters.category));
  if (filters.ids) where.push(inArray(products.id, filters.ids));
  if (filters.visibleOnly) where.push(eq(products.hidden, false));
  for (const word of filters.words ?? []) where.push(like(products.searchText, `%${escapeLike(word)}%`));
  for (const word of filters.nameWords ?? []) {
    where.push(like(sql`translate(lower(${products.name}), ${ACCENTED}, ${PLAIN})`, `%${escapeLike(word)}%`));
  }
  if (filters.featured) where.push(eq(products.showOnHome, true));
  if (filters.minPriceCents !== undefined) where.push(gte(products.priceCents, filters.minPriceCents));
  if (filters.maxPriceCents !== undefined) where.push(lte(products.priceCents, filters.maxPriceCents));
  if (filters.sizeNames?.length) {
    where.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(stock)
          .innerJoin(sizes, eq(sizes.id, stock.sizeId))
          .where(
            and(
              eq(stock.productId, products.id),
              gt(stock.quantity, 0),
              inArray(sql`lower(${sizes.name})`, filters.sizeNames),
            ),
          ),
      ),
    );
  }
  const order = filters.featured
    ? [sql`${products.homePosition} asc nulls last`, asc(products.id)]
    : [asc(products.id)];
  return db
    .select()
    .from(products)
    .where(where.length ? and(...where) : undefined)
    .orderBy(...order);
}

export interface ShopImage {
  productId: number;
  position: number;
  url: string;
  alt: string;
  colorId: number | null;
}

export async function findImages(db: Conn, productIds: number[]): Promise<ShopImage[]> {
  if (!productIds.length) return [];
  return imagesByProducts(db).execute({ ids: productIds });
}

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

/** Inserts missing colours by name and answers every given name's id. */
export async function ensureColors(
  db: Conn,
  rows: Array<{ name: string; hex: string }>,
): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  // Any unique conflict (the name, or the same name in other letter case) leaves the existing colour.
  await db.insert(colors).values(rows).onConflictDoNothing();
  const found = await db
    .select({ id: colors.id, name: colors.name })
    .from(colors)
    .where(
      inArray(
        colors.name,
        rows.map((r) => r.name),
      ),
    );
  return new Map(found.map((c) => [c.name, c.id]));
}

/** Inserts missing sizes by name and answers every given name's id. */
export async function ensureSizes(
  db: Conn,
  rows: Array<{ name: string; sortOrder: number }>,
): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  await db.insert(sizes).values(rows).onConflictDoNothing();
  const found = await db
    .select({ id: sizes.id, name: sizes.name })
    .from(sizes)
    .where(
      inArray(
        sizes.name,
        rows.map((r) => r.name),
      ),
    );
  return new Map(found.map((s) => [s.name, s.id]));
}

export async function insertProducts(db: Conn, rows: NewProductRow[]): Promise<number[]> {
  if (!rows.length) return [];
  const inserted = await db.insert(products).values(rows).returning({ id: products.id });
  await notifyChanged(db);
  // Serial ids are drawn row by row in VALUES order, so sorted ids line up with `rows` even if
  // RETURNING were to list them in another order.
  return inserted.map((r) => r.id).sort((a, b) => a - b);
}

export async function insertImages(
  db: Conn,
  rows: Array<{ productId: number; position: number; url: string }>,
): Promise<void> {
  if (!rows.length) return;
  await db.insert(productImages).values(rows);
  await notifyChanged(db);
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
 * sale), releasing the line when nothing is left; false when the charge holds fewer units.
 */
export async function shrinkReservation(
  tx: Tx,
  chargeId: number,
  line: StockLine,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(stockReservations)
    .set({
      quantity: sql`${stockReservations.quantity} - ${line.quantity}`,
      releasedAt: sql`case when ${stockReservations.quantity} = ${line.quantity} then ${now.toISOString()}::timestamptz end`,
    })
    .where(
      and(
        eq(stockReservations.chargeId, chargeId),
        eq(stockReservations.productId, line.productId),
        eq(stockReservations.colorId, line.colorId),
        eq(stockReservations.sizeId, line.sizeId),
        isNull(stockReservations.releasedAt),
        gte(stockReservations.quantity, line.quantity),
      ),
    )
    .returning({ id: stockReservations.id });
  return rows.length > 0;
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

// --- Back-office additions: the shop's functions above keep their behaviour.

export type ImageStatus = (typeof productImages.$inferSelect)['status'];

export interface ImageRow {
  id: number;
  productId: number;
  position: number;
  url: string;
  status: ImageStatus;
  alt: string;
  colorId: number | null;
}

/** A photo's alt text and colour; null when the photo is not the product's. */
export async function updateImageRow(
  db: Conn,
  productId: number,
  imageId: number,
  patch: { alt: string; colorId: number | null },
): Promise<ImageRow | null> {
  const [row] = await db
    .update(productImages)
    .set(patch)
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)))
    .returning();
  await notifyChanged(db);
  return row ?? null;
}

export async function findImageRows(db: Conn, productId: number): Promise<ImageRow[]> {
  return db
    .select()
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.id));
}

export async function insertImageRow(
  db: Conn,
  productId: number,
  position: number,
  url: string,
  status: ImageStatus = 'pronta',
) {
  const [row] = await db.insert(productImages).values({ productId, position, url, status }).returning();
  await notifyChanged(db);
  return row!;
}

/** Moves the photo at `url` out of `processando`; the shop lists it from the commit on when `pronta`. */
export async function setImageStatus(db: Conn, url: string, status: ImageStatus): Promise<void> {
  await db
    .update(productImages)
    .set({ status })
    .where(and(eq(productImages.url, url), eq(productImages.status, 'processando')));
  await notifyChanged(db);
}

export async function deleteImageRow(db: Conn, productId: number, imageId: number): Promise<ImageRow | null> {
  const [row] = await db
    .delete(productImages)
    .where(and(eq(productImages.id, imageId), eq(productImages.productId, productId)))
    .returning();
  await notifyChanged(db);
  return row ?? null;
}

export async function setImagePosition(db: Conn, imageId: number, position: number): Promise<void> {
  await db.update(productImages).set({ position }).where(eq(productImages.id, imageId));
  await notifyChanged(db);
}

/** Locks the product row so two uploads or reorders of one product run one after the other. */
export async function lockProduct(tx: Tx, productId: number): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
  return row;
}

export async function updateProductRow(
  db: Conn,
  productId: number,
  patch: Partial<NewProductRow>,
): Promise<ProductRow | undefined> {
  const [row] = await db.update(products).set(patch).where(eq(products.id, productId)).returning();
  await notifyChanged(db);
  return row;
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

export async function findLowStock(db: Conn, threshold: number) {
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
    .where(and(lte(stock.quantity, threshold), eq(products.hidden, false)))
    .orderBy(asc(stock.quantity), asc(products.name), asc(colors.name), asc(sizes.sortOrder));
}

export function listColors(db: Conn) {
  return db.select().from(colors).orderBy(asc(colors.name));
}

export function listSizes(db: Conn) {
  return db.select().from(sizes).orderBy(asc(sizes.sortOrder), asc(sizes.name));
}

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

// --- The home page: featured products and banners (docs/decisions/0034).

/** The featured products' ids in order, their rows locked so a concurrent edit of the list waits. */
export async function lockFeatured(tx: Tx): Promise<number[]> {
  const rows = await tx
    .select({ id: products.id })
    .from(products)
    .where(eq(products.showOnHome, true))
    .orderBy(sql`${products.homePosition} asc nulls last`, asc(products.id))
    .for('update');
  return rows.map((r) => r.id);
}

export async function findFeaturedIds(db: Conn): Promise<number[]> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.showOnHome, true))
    .orderBy(sql`${products.homePosition} asc nulls last`, asc(products.id));
  return rows.map((r) => r.id);
}

/** Features exactly `ids`, in that order; every other product leaves the home page. */
export async function setFeatured(tx: Tx, ids: number[]): Promise<void> {
  await tx
    .update(products)
    .set({ showOnHome: false, homePosition: null })
    .where(eq(products.showOnHome, true));
  for (const [i, id] of ids.entries()) {
    await tx
      .update(products)
      .set({ showOnHome: true, homePosition: i + 1 })
      .where(eq(products.id, id));
  }
  await notifyChanged(tx);
}

/** The next place at the end of the featured list. */
export async function nextHomePosition(db: Conn): Promise<number> {
  const [row] = await db
    .select({ last: sql<number>`coalesce(max(${products.homePosition}), 0)` })
    .from(products);
  return Number(row?.last ?? 0) + 1;
}

export type BannerRow = typeof homeBanners.$inferSelect;

export function listBanners(db: Conn): Promise<BannerRow[]> {
  return db.select().from(homeBanners).orderBy(asc(homeBanners.position), asc(homeBanners.id));
}

/** Serialises edits of the banner list (an empty list has no row to lock). */
export async function lockBanners(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('home_banners'))`);
}

export async function replaceBanners(
  tx: Tx,
  rows: Array<{ imageUrl: string; text: string; link: string }>,
): Promise<void> {
  await tx.delete(homeBanners);
  if (rows.length) await tx.insert(homeBanners).values(rows.map((r, i) => ({ ...r, position: i + 1 })));
  await notifyChanged(tx);
}
