import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * Erases the PCD answer (health data, LGPD art. 11) of every registration whose event ended before
 * `endedBefore` (an `aaaa-mm-dd` date in the store's calendar) and stamps when; the registration, its
 * categories and its kit stay. Answers the ids erased, for the job's log line.
 */
export async function eraseHealthDataOfEventsEndedBefore(
  db: Db,
  endedBefore: string,
  now: Date,
): Promise<number[]> {
  const result = (await db.execute(sql`
    update registrations r
       set pcd = false, pcd_erased_at = ${now.toISOString()}
      from events e
     where e.id = r.event_id and r.pcd and e.end_data_evento < ${endedBefore}
     returning r.id`)) as { rows: Array<{ id: number }> };
  return result.rows.map((row) => Number(row.id));
}
