import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { photos } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type PhotoRow = typeof photos.$inferSelect;
export type PhotoStatus = PhotoRow['status'];

export async function insertPhoto(db: Conn, folder: string, name: string): Promise<PhotoRow> {
  const [row] = await db.insert(photos).values({ folder, name }).returning();
  return row!;
}

export async function findPhoto(db: Conn, id: number): Promise<PhotoRow | undefined> {
  const [row] = await db.select().from(photos).where(eq(photos.id, id));
  return row;
}

/** Ends the processing of a photo; undefined when it was removed (or already ended) meanwhile. */
export async function finishPhoto(
  db: Conn,
  id: number,
  status: Exclude<PhotoStatus, 'processando'>,
): Promise<PhotoRow | undefined> {
  const [row] = await db
    .update(photos)
    .set({ status, processedAt: new Date() })
    .where(and(eq(photos.id, id), eq(photos.status, 'processando')))
    .returning();
  return row;
}

export async function deletePhotoByName(db: Conn, name: string): Promise<void> {
  await db.delete(photos).where(eq(photos.name, name));
}
