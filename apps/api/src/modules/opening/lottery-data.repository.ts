import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { ERASED_NAME, type ErasedAccount } from '../accounts/index.ts';
import { audit } from '../staff/index.ts';
import { PAYING_WINNER } from './paying-winner.read-model.ts';

/** Who the audit log names for the lottery entries' retention: the scheduled job, not a person. */
export const LOTTERY_DATA_JOB_ACTOR = 'sistema (privacy.lottery-data)';

/**
 * The personal fields of a lottery entry blanked: the id, category, ranking and draw stay, so the
 * published draw can still be recomputed (docs/decisions/0051) and the winners still count.
 */
const ERASE_LOTTERY_ENTRY = sql`full_name = ${ERASED_NAME}, cpf = '', email = '', birth_date = null`;

/**
 * LGPD retention of the lottery entries (name, CPF, e-mail, birth date; docs/decisions/0051) once their
 * event is over: the entries of events whose last day is before `endedBefore` (`aaaa-mm-dd` in the
 * store's calendar) are blanked, audited in the same transaction (which events and how many; no
 * personal data). Answers how many entries were blanked.
 */
export async function eraseLotteryEntriesOfEventsEndedBefore(
  db: Db,
  endedBefore: string,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    const lottery = (await tx.execute(sql`
      update lottery_entries l
         set ${ERASE_LOTTERY_ENTRY}
        from events e
       where e.id = l.event_id and e.end_data_evento < ${endedBefore}
         and (l.cpf <> '' or l.email <> '' or l.birth_date is not null)
       returning l.event_id`)) as { rows: Array<{ event_id: number }> };
    if (lottery.rows.length > 0)
      await audit(
        tx,
        { id: null, email: LOTTERY_DATA_JOB_ACTOR },
        {
          action: 'dados_de_sorteio_apagados',
          entity: 'evento',
          after: {
            sorteio: {
              entradas: lottery.rows.length,
              eventos: [...new Set(lottery.rows.map((r) => Number(r.event_id)))].sort((a, b) => a - b),
            },
            eventos_terminados_antes_de: endedBefore,
          },
          at: now,
        },
      );
    return lottery.rows.length;
  });
}

/**
 * An account erased (docs/decisions/0057): the lottery entries made with the account, or given with
 * its confirmed e-mail. Not drawn yet, deleted (they leave the lottery); once drawn, their personal
 * fields blanked (the ranking stays); a winner paying right now stays as it is (that charge ends it).
 * Runs before payments forgets the account's charges, whose drafts name the paying winner's CPF.
 */
export async function forgetLotteryEntries(tx: Tx, account: ErasedAccount): Promise<void> {
  const email = account.confirmedEmail?.toLowerCase() ?? null;
  const whose = email
    ? sql`(l.user_id = ${account.userId} or lower(l.email) = ${email})`
    : sql`l.user_id = ${account.userId}`;
  const mine = sql`${whose} and not ${PAYING_WINNER}`;
  await tx.execute(sql`delete from lottery_entries l where l.rank is null and ${mine}`);
  await tx.execute(
    sql`update lottery_entries l set ${ERASE_LOTTERY_ENTRY} where l.rank is not null and ${mine}`,
  );
}
