/**
 * What the staff module reads of the events it assigns members to: only whether they exist. The events
 * table is the events module's; staff, the low module, never writes it nor imports that module
 * (docs/architecture.md §9, rules 8 and 11).
 */
import { inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** Which of `ids` name events that exist (an assignment to a missing event is refused, not a 500). */
export async function existingEventIds(db: Conn, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.select({ id: events.id }).from(events).where(inArray(events.id, ids));
  return rows.map((r) => r.id);
}
