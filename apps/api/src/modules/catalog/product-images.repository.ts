import { and, asc, eq } from 'drizzle-orm';
import { inIds, prepared } from '../../db/prepared.ts';
import { productImages } from '../../db/schema/index.ts';
import { type Conn, notifyChanged } from './catalog-changed.ts';

/** The products' photos: what the shop shows, and the back office's rows with their state (docs/decisions/0027). */

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

export async function insertImages(
  db: Conn,
  rows: Array<{ productId: number; position: number; url: string }>,
): Promise<void> {
  if (!rows.length) return;
  await db.insert(productImages).values(rows);
  await notifyChanged(db);
}

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
