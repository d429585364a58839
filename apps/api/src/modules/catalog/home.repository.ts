import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { homeBanners, products } from '../../db/schema/index.ts';
import { type Conn, notifyChanged } from './catalog-changed.ts';

/** The home page: featured products and banners (docs/decisions/0034). */

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
