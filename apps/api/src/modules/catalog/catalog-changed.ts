import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** A connection or a transaction: every catalogue read and write takes either. */
export type Conn = Db | Tx;

/** The channel every catalogue write notifies; the answer cache of each server process listens. */
export const CATALOG_CHANGED = 'catalog_changed';

/**
 * Tells every process the catalogue changed. PostgreSQL delivers it when the caller's transaction
 * commits (and never when it rolls back), which is exactly when cached answers become old.
 */
export async function notifyChanged(db: Conn): Promise<void> {
  await db.execute(sql`select pg_notify(${CATALOG_CHANGED}, '')`);
}
