import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations, registrationTransfers, waitlistEntries } from '../../db/schema/index.ts';
import { ERASED_NAME, type ErasedAccount } from '../accounts/index.ts';
import { notifyEventsChanged } from '../events/events.service.ts';
import { audit } from '../staff/index.ts';

/** Who the audit log names for the retention: the scheduled job, not a person. */
export const RUNNER_DATA_JOB_ACTOR = 'sistema (privacy.runner-data)';

/**
 * LGPD retention of what runners gave for a waitlist and a transfer (docs/decisions/0047; the lottery
 * entries are the opening's, decision 0061), once
 * their event is over: the waitlist entries (name, CPF, e-mail) of events whose last day is before
 * `waitlistEndedBefore` are deleted with their history; the transfers of events whose last day is
 * before `transfersEndedBefore` lose the CPF and e-mails of both runners and their names (the
 * registration's history keeps who handed it to whom, by name). Both `aaaa-mm-dd` in the store's
 * calendar. Each erasure is written to the audit log in the same transaction (which events and how
 * many rows; no personal data). Answers how many rows of each kind went.
 */
export async function eraseRunnerDataOfEventsEndedBefore(
  db: Db,
  cutoff: { waitlistEndedBefore: string; transfersEndedBefore: string },
  now: Date,
): Promise<{ waitlist: number; transfers: number }> {
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
    const eventsOf = (rows: Array<{ event_id: number }>) =>
      [...new Set(rows.map((r) => Number(r.event_id)))].sort((a, b) => a - b);
    if (waitlist.rows.length > 0 || transfers.rows.length > 0)
      await audit(
        tx,
        { id: null, email: RUNNER_DATA_JOB_ACTOR },
        {
          action: 'dados_de_corredores_apagados',
          entity: 'evento',
          after: {
            lista_espera: { entradas: waitlist.rows.length, eventos: eventsOf(waitlist.rows) },
            transferencias: { linhas: transfers.rows.length, eventos: eventsOf(transfers.rows) },
            lista_espera_eventos_terminados_antes_de: cutoff.waitlistEndedBefore,
            transferencias_eventos_terminados_antes_de: cutoff.transfersEndedBefore,
          },
          at: now,
        },
      );
    if (waitlist.rows.length > 0) await notifyEventsChanged(tx);
    return { waitlist: waitlist.rows.length, transfers: transfers.rows.length };
  });
}

/**
 * An account erased (LGPD art. 18 VI), in the erasure's transaction. Only what is the account's goes
 * (docs/decisions/0057): the pending transfers of its own registrations are cancelled (their link stops
 * working); its lottery entries are the opening's (decision 0061). What a person gave with
 * an e-mail and no account is the account's only when the account confirmed that address
 * (`confirmedEmail`, null otherwise): then the waitlist entries given with it are deleted (not one whose
 * offer was accepted and is being paid: that charge ends it), the pending transfers from or to it
 * cancelled and its side of every transfer erased. Nobody else's rows are touched on this request. The registrations themselves are kept
 * for the records (docs/operations.md). Answers whether a waitlist offer went, so the caller queues the
 * sweep that offers its place to the next in line.
 */
export async function forgetRunner(
  tx: Tx,
  account: ErasedAccount,
  now: Date,
): Promise<{ offersFreed: boolean }> {
  const email = account.confirmedEmail?.toLowerCase() ?? null;
  const gone = email
    ? await tx
        .delete(waitlistEntries)
        .where(and(sql`lower(${waitlistEntries.email}) = ${email}`, ne(waitlistEntries.status, 'aceita')))
        .returning({ status: waitlistEntries.status })
    : [];
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
          ...(email
            ? [
                sql`lower(${registrationTransfers.fromEmail}) = ${email}`,
                sql`lower(${registrationTransfers.toEmail}) = ${email}`,
              ]
            : []),
        ),
      ),
    );
  if (email) {
    await tx
      .update(registrationTransfers)
      .set({ fromName: ERASED_NAME, fromEmail: '' })
      .where(sql`lower(${registrationTransfers.fromEmail}) = ${email}`);
    await tx
      .update(registrationTransfers)
      .set({ toName: ERASED_NAME, toCpf: '', toEmail: '' })
      .where(sql`lower(${registrationTransfers.toEmail}) = ${email}`);
  }
  return { offersFreed: gone.some((g) => g.status === 'oferta') };
}
