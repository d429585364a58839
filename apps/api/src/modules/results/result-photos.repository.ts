import { and, arrayContains, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { resultPhotos } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type ResultPhotoRow = typeof resultPhotos.$inferSelect;

export async function insertPhoto(tx: Tx, eventId: number, url: string, fileName: string) {
  const [row] = await tx.insert(resultPhotos).values({ eventId, url, fileName }).returning();
  return row!;
}

/** The photo pipeline finished a race's photo: its row follows; the event, or none when it was removed. */
export async function setStatus(tx: Tx, url: string, status: 'pronta' | 'falhou') {
  const [row] = await tx
    .update(resultPhotos)
    .set({ status })
    .where(eq(resultPhotos.url, url))
    .returning({ eventId: resultPhotos.eventId });
  return row?.eventId;
}

export function photosOfEvent(db: Conn, eventId: number) {
  return db
    .select()
    .from(resultPhotos)
    .where(eq(resultPhotos.eventId, eventId))
    .orderBy(asc(resultPhotos.fileName), asc(resultPhotos.id));
}

/** The event's photos of these file names (the timer's file of bibs per photo names them). */
export function photosByFileName(tx: Tx, eventId: number, fileNames: string[]) {
  if (!fileNames.length) return Promise.resolve([]);
  return tx
    .select({ id: resultPhotos.id, fileName: resultPhotos.fileName })
    .from(resultPhotos)
    .where(and(eq(resultPhotos.eventId, eventId), inArray(resultPhotos.fileName, fileNames)));
}

export async function setBibs(tx: Tx, eventId: number, photoId: number, bibs: number[]) {
  const [row] = await tx
    .update(resultPhotos)
    .set({ bibs })
    .where(and(eq(resultPhotos.id, photoId), eq(resultPhotos.eventId, eventId)))
    .returning();
  return row;
}

export async function deletePhoto(tx: Tx, eventId: number, photoId: number) {
  const [row] = await tx
    .delete(resultPhotos)
    .where(and(eq(resultPhotos.id, photoId), eq(resultPhotos.eventId, eventId)))
    .returning({ url: resultPhotos.url });
  return row;
}

/** A bib's ready photos on an event, oldest upload first (the GIN index answers `numeros @> {bib}`). */
export function readyPhotosOfBib(db: Conn, eventId: number, bib: number) {
  return db
    .select({ id: resultPhotos.id, url: resultPhotos.url })
    .from(resultPhotos)
    .where(
      and(
        eq(resultPhotos.eventId, eventId),
        eq(resultPhotos.status, 'pronta'),
        arrayContains(resultPhotos.bibs, [bib]),
      ),
    )
    .orderBy(asc(resultPhotos.id));
}
