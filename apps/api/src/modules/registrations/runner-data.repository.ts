import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { auditLog, registrations, registrationTransfers, waitlistEntries } from '../../db/schema/index.ts';
import { notifyEventsChanged } from '../events/events.service.ts';

/** Who the audit log names for the retention: the scheduled job, not a person. */
export const RUNNER_DATA_JOB_ACTOR = 'sistema (privacy.runner-data)';

/** What an erased transfer's people are called from then on (the columns are required). */
const ERASED_NAME = 'Dados apagados';

/**
 * A lottery winner paying right now (docs/decisions/0051): a charge for the entry's CPF still holds a
 * place in its event and has not become a registration yet. That charge ends it; the entry stays as it
 * is until then.
 */
const PAYING_WINNER = sql`(l.won_in_draw is not null and exists (
  select 1 from place_reservations pr
    join charges c on c.id = pr.charge_id
    join event_categories ec on ec.id = pr.category_id
    join event_days d on d.id = ec.day_id
   where d.event_id = l.event_id and pr.released_at is null and c.draft->>'cpf' = l.cpf
     and not exists (select 1 from registrations r where r.charge_id = pr.charge_id and r.event_id = l.event_id)))`;

/**
 * The personal fields of a lottery entry blanked: the id, category, ranking and draw stay, so the
 * published draw can still be recomputed (docs/decisions/0051) and the winners still count.
 */
const ERASE_LOTTERY_ENTRY = sql`full_name = ${ERASED_NAME}, cpf = '', email = '', birth_date = null`;

/**
 * LGPD retention of what runners gave for a waitlist and a transfer (docs/decisions/0047), once
 * their event is over: the waitlist entries (name, CPF, e-mail) of events whose last day is before
 * `waitlistEndedBefore` are deleted with their history; the transfers of events whose last day is
 * before `transfersEndedBefore` lose the CPF and e-mails of both runners and their names (the
 * registration's history keeps who handed it to whom, by name). Both `aaaa-mm-dd` in the store's
 * calendar. Each erasure is written to the audit log in the same transaction (which events and how
 * many rows; no personal data). Answers how many rows of each kind went.
 */
export async function eraseRunnerDataOfEventsEndedBefore(
  db: Db,
  cutoff: { waitlistEndedBefore: string; transfersEndedBefore: string; lotteryEndedBefore: string },
  now: Date,
): Promise<{ waitlist: number; transfers: number; lottery: number }> {
  return db.transaction(async (tx) => {
    const waitlist = (await tx.execute(sql`
      delete from waitlist_entries w
       using events e
       where e.id = w.event_id and e.end_data_evento < ${cutoff.waitlistEndedBefore}
       returning w.event_id`)) as { rows: Array<{ event_id: number }> };
    const transfers = (await tx.execute(sql`
      update registration_transfers t
         set to_name = ${ERASED_NAME}, to_cpf = '', to_email = '', from_name = ${ERASED_NAME}, from_email = ''
        from registrations r, events e
       where r.id = t.registration_id and e.id = r.event_id
         and e.end_data_evento < ${cutoff.transfersEndedBefore}
         and (t.to_cpf <> '' or t.to_email <> '' or t.from_email <> '')
       returning r.event_id`)) as { rows: Array<{ event_id: number }> };
    const lottery = (await tx.execute(sql`
      update lottery_entries l
         set ${ERASE_LOTTERY_ENTRY}
        from events e
       where e.id = l.event_id and e.end_data_evento < ${cutoff.lotteryEndedBefore}
         and (l.cpf <> '' or l.email <> '' or l.birth_date is not null)
       returning l.event_id`)) as { rows: Array<{ event_id: number }> };
    const eventsOf = (rows: Array<{ event_id: number }>) =>
      [...new Set(rows.map((r) => Number(r.event_id)))].sort((a, b) => a - b);
    if (waitlist.rows.length > 0 || transfers.rows.length > 0 || lottery.rows.length > 0)
      await tx.insert(auditLog).values({
        staffId: null,
        staffEmail: RUNNER_DATA_JOB_ACTOR,
        action: 'dados_de_corredores_apagados',
        entity: 'evento',
        entityId: null,
        before: null,
        after: {
          lista_espera: { entradas: waitlist.rows.length, eventos: eventsOf(waitlist.rows) },
          transferencias: { linhas: transfers.rows.length, eventos: eventsOf(transfers.rows) },
          sorteio: { entradas: lottery.rows.length, eventos: eventsOf(lottery.rows) },
          lista_espera_eventos_terminados_antes_de: cutoff.waitlistEndedBefore,
          transferencias_eventos_terminados_antes_de: cutoff.transfersEndedBefore,
          sorteio_eventos_terminados_antes_de: cutoff.lotteryEndedBefore,
        },
        at: now,
      });
    if (waitlist.rows.length > 0) await notifyEventsChanged(tx);
    return { waitlist: waitlist.rows.length, transfers: transfers.rows.length, lottery: lottery.rows.length };
  });
}

/**
 * An account erased (LGPD art. 18 VI), in the erasure's transaction (lottery entries: see below): the waitlist entries given with
 * its e-mail are deleted (not one whose offer was accepted and is being paid: that charge ends it);
 * the pending transfers of its registrations, or from or to its e-mail, are cancelled (their link
 * stops working), and
 * its side of every transfer (as the one who handed it or the one invited, by e-mail) is erased.
 * The registrations themselves are kept for the records (docs/operations.md). Answers whether a
 * waitlist offer went, so the caller queues the sweep that offers its place to the next in line.
 */
export async function forgetRunner(
  tx: Tx,
  account: { userId: number; email: string },
  now: Date,
): Promise<{ offersFreed: boolean }> {
  const email = account.email.toLowerCase();
  const gone = await tx
    .delete(waitlistEntries)
    .where(and(sql`lower(${waitlistEntries.email}) = ${email}`, ne(waitlistEntries.status, 'aceita')))
    .returning({ status: waitlistEntries.status });
  if (gone.length > 0) await notifyEventsChanged(tx);
  const own = tx
    .select({ id: registrations.id })
    .from(registrations)
    .where(eq(registrations.accountUserId, account.userId));
  await tx
    .update(registrationTransfers)
    .set({ status: 'cancelada', endedAt: now })
    .where(
      and(
        eq(registrationTransfers.status, 'pendente'),
        or(
          inArray(registrationTransfers.registrationId, own),
          sql`lower(${registrationTransfers.fromEmail}) = ${email}`,
          sql`lower(${registrationTransfers.toEmail}) = ${email}`,
        ),
      ),
    );
  await tx
    .update(registrationTransfers)
    .set({ fromName: ERASED_NAME, fromEmail: '' })
    .where(sql`lower(${registrationTransfers.fromEmail}) = ${email}`);
  await tx
    .update(registrationTransfers)
    .set({ toName: ERASED_NAME, toCpf: '', toEmail: '' })
    .where(sql`lower(${registrationTransfers.toEmail}) = ${email}`);
  // Lottery entries made with the account or given with its e-mail (docs/decisions/0051): not drawn
  // yet, deleted (they leave the lottery); once drawn, their personal fields blanked (the ranking
  // stays); a winner paying right now stays as it is.
  const mine = sql`(l.user_id = ${account.userId} or lower(l.email) = ${email}) and not ${PAYING_WINNER}`;
  await tx.execute(sql`delete from lottery_entries l where l.rank is null and ${mine}`);
  await tx.execute(
    sql`update lottery_entries l set ${ERASE_LOTTERY_ENTRY} where l.rank is not null and ${mine}`,
  );
  return { offersFreed: gone.some((g) => g.status === 'oferta') };
}
