import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { audit } from '../staff/index.ts';

/** Who the audit log names for the erasure: the scheduled job, not a person. */
export const HEALTH_DATA_JOB_ACTOR = 'sistema (privacy.health-data)';

/**
 * Erases the PCD answer (health data, LGPD art. 11) of every registration whose event ended before
 * `endedBefore` (an `aaaa-mm-dd` date in the store's calendar) and stamps when; the registration, its
 * categories and its kit stay. The erasure is written to the back office's audit log in the same
 * transaction (which registrations, under which rule; no personal data). Answers the ids erased.
 */
export async function eraseHealthDataOfEventsEndedBefore(
  db: Db,
  endedBefore: string,
  now: Date,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      update registrations r
         set pcd = false, pcd_erased_at = ${now.toISOString()}
        from events e
       where e.id = r.event_id and r.pcd and e.end_data_evento < ${endedBefore}
       returning r.id`)) as { rows: Array<{ id: number }> };
    const ids = result.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    if (ids.length > 0)
      await audit(
        tx,
        { id: null, email: HEALTH_DATA_JOB_ACTOR },
        {
          action: 'dados_pcd_apagados',
          entity: 'inscricao',
          after: { inscricoes: ids, eventos_terminados_antes_de: endedBefore },
          at: now,
        },
      );
    return ids;
  });
}
