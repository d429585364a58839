import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { ERASED_NAME, type SalesCutoff, type SalesRecordsErased } from '../accounts/index.ts';

/**
 * Registrations of events ended before the sales records' cutoff (decision 0050) lose the participant's
 * personal data (name replaced, CPF, contacts, address, emergency contact and the person authorised to collect the kit blanked, the birth year
 * kept for statistics, the account link removed) and the names in their transfer history; categories,
 * kits and amounts stay. Answers how many, and their charges.
 */
export async function eraseRegistrationsOfEventsEndedBefore(
  tx: Tx,
  cutoff: SalesCutoff,
): Promise<SalesRecordsErased> {
  const registrations = (await tx.execute(sql`
    update registrations r
       set account_user_id = null,
           nome_completo = ${ERASED_NAME}::text,
           -- Unique with the charge and the event: a placeholder of its own, never a CPF.
           cpf = 'apagado-' || r.id,
           data_nascimento = date_trunc('year', r.data_nascimento)::date,
           endereco = '', numero_contato = '', email = '', street = '', zip_code = '', neighborhood = '',
           equipe = null, contato_emergencia_nome = null, contato_emergencia_telefone = null,
           pcd = false,
           retirada_autorizada_nome = null, retirada_autorizada_cpf = null,
           dados_pessoais_apagados_em = ${cutoff.now.toISOString()}
      from events e
     where e.id = r.event_id and e.end_data_evento < ${cutoff.date}
       and r.dados_pessoais_apagados_em is null
     returning r.id, r.charge_id`)) as { rows: Array<{ id: number; charge_id: number }> };
  if (registrations.rows.length > 0) {
    const ids = sql.join(
      registrations.rows.map((r) => sql`${Number(r.id)}`),
      sql`, `,
    );
    // The name of whoever collected the kit for the runner goes with the runner's own.
    await tx.execute(sql`
      update registration_checkins set retirado_por_nome = ${ERASED_NAME}::text
       where retirado_por_nome is not null and registration_id in (${ids})`);
    await tx.execute(sql`
      update registration_changes
         set detail = detail || jsonb_build_object('de', ${ERASED_NAME}::text, 'para', ${ERASED_NAME}::text)
       where kind = 'transferencia'
         and registration_id in (${ids})`);
  }
  return {
    counts: { inscricoes: registrations.rows.length },
    chargeIds: registrations.rows.map((r) => Number(r.charge_id)),
  };
}
