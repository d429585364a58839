import type { Sale } from '@passada/core/sale-price';
import { and, asc, eq, exists, gt, gte, inArray, like, lte, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { inIds, prepared } from '../../db/prepared.ts';
import { colors, products, sizes, stock } from '../../db/schema/index.ts';
import { type Conn, notifyChanged } from './catalog-changed.ts';

export { CATALOG_CHANGED } from './catalog-changed.ts';
/**
 * The products, their colours and sizes. The other aggregates have their own files, re-exported here so
 * the module's service reads one repository: stock (stock.repository.ts), photos
 * (product-images.repository.ts) and the home page (home.repository.ts).
 */
export * from './home.repository.ts';
export * from './product-images.repository.ts';
export * from './stock.repository.ts';

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;

/** The sale staff set on a product (docs/decisions/0082), or null. */
export function saleOf(
  row: Pick<ProductRow, 'salePriceCents' | 'saleStartsAt' | 'saleEndsAt' | 'saleOnly'>,
): Sale | null {
  return row.salePriceCents !== null && row.saleStartsAt && row.saleEndsAt
    ? {
        priceCents: row.salePriceCents,
        startsAt: row.saleStartsAt,
        endsAt: row.saleEndsAt,
        only: row.saleOnly?.length ? row.saleOnly : null,
      }
    : null;
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
  /** The price range, compared with the price at `priceAt` (a sale's price while it runs). */
  minPriceCents?: number;
  maxPriceCents?: number;
  priceAt?: Date;
  /** Lower-cased size names; the product needs stock > 0 in at least one. */
  sizeNames?: string[];
  /** Leaves out products the back office hid and drafts not yet published. */
  visibleOnly?: boolean;
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

/** Products by id, hidden ones included (a cart, an order, the back office), in id order. */
export async function findProductsByIds(db: Conn, ids: number[]): Promise<ProductRow[]> {
  if (!ids.length) return [];
  return productsByIds(db).execute({ ids });
}

export async function findProducts(db: Conn, filters: ProductFilters = {}): Promise<ProductRow[]> {
  const where: SQL[] = [];
  if (filters.category) where.push(eq(products.category, filters.category));
  if (filters.ids) where.push(inArray(products.id, filters.ids));
  if (filters.visibleOnly) where.push(eq(products.hidden, false), eq(products.draft, false));
  for (const word of filters.words ?? []) where.push(like(products.searchText, `%${escapeLike(word)}%`));
  for (const word of filters.nameWords ?? []) {
    where.push(like(sql`translate(lower(${products.name}), ${ACCENTED}, ${PLAIN})`, `%${escapeLike(word)}%`));
  }
  if (filters.featured) where.push(eq(products.showOnHome, true));
  // The price the shop asks at that moment, as core's `priceAt` computes it (docs/decisions/0082).
  const at = (filters.priceAt ?? new Date()).toISOString();
  // A sale limited to some colours × sizes leaves the product's own price at the list price.
  const price = sql`(case when ${products.salePriceCents} < ${products.priceCents} and ${products.saleOnly} is null and ${products.saleStartsAt} <= ${at} and ${at} < ${products.saleEndsAt} then ${products.salePriceCents} else ${products.priceCents} end)`;
  if (filters.minPriceCents !== undefined) where.push(gte(price, filters.minPriceCents));
  if (filters.maxPriceCents !== undefined) where.push(lte(price, filters.maxPriceCents));
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

/**
 * Whether any product's sale started or ended in (`from`, `to`] (docs/decisions/0082); when one did, the
 * catalogue is notified as changed, so every process drops the answers and pages priced before it.
 */
export async function touchSaleBoundaries(db: Conn, from: Date, to: Date): Promise<boolean> {
  const [a, b] = [from.toISOString(), to.toISOString()];
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      sql`(${products.saleStartsAt} > ${a} and ${products.saleStartsAt} <= ${b}) or (${products.saleEndsAt} > ${a} and ${products.saleEndsAt} <= ${b})`,
    )
    .limit(1);
  if (row) await notifyChanged(db);
  return row !== undefined;
}

/** Drafts whose publishing time has come, oldest time first. */
export async function findDueDrafts(db: Conn, now: Date): Promise<number[]> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.draft, true), lte(products.publishAt, now)))
    .orderBy(asc(products.publishAt), asc(products.id));
  return rows.map((r) => r.id);
}

/** Products' names by id (the audit log names what a line is about); ids not found are left out. */
export function productNames(db: Conn, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.select({ id: products.id, name: products.name }).from(products).where(inArray(products.id, ids));
}

export function listColors(db: Conn) {
  return db.select().from(colors).orderBy(asc(colors.name));
}

export function listSizes(db: Conn) {
  return db.select().from(sizes).orderBy(asc(sizes.sortOrder), asc(sizes.name));
}
