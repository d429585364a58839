import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { auditLog } from '../../db/schema/index.ts';

/** Who the audit log names for the sales retention: the scheduled job, not a person. */
export const SALES_RETENTION_ACTOR = 'sistema (privacy.sales-retention)';

/** What an anonymised buyer or participant is called from then on (the columns are required). */
const ERASED_NAME = 'Dados apagados';

/**
 * The first day (`aaaa-01-01`, store calendar) of the oldest year whose records are still kept
 * `years` after it: the tax authority may assess a year's taxes for five years counted from the first
 * day of the following year (CTN art. 173 I, 174), and the books are kept until then (Código Civil art.
 * 1.194). So on any day of 2031 the sales of 2025 are kept and those of 2024 and before are not.
 */
export function salesRetentionCutoff(today: string, years: number): string {
  return `${Number(today.slice(0, 4)) - years}-01-01`;
}

/** How many rows the sales retention changed. */
export interface SalesRetentionResult {
  orders: number;
  registrations: number;
  charges: number;
  auditLog: number;
}

/**
 * The sales records past their legal period (docs/operations.md, decision 0050): orders placed and
 * registrations of events ended before `cutoff` (an `aaaa-mm-dd` of the store calendar) keep their
 * items, categories, sizes and amounts but lose the buyer's and participant's personal data (name
 * replaced, CPF, e-mail, phone, address and emergency contact blanked, the order's delivery city and
 * state and the participant's birth year kept for the books and statistics, the account link
 * removed); their charges' drafts are cleared as the payments module defines it (`forgetCharges`), the
 * names in the registrations' transfer history replaced, and audit-log lines older than `cutoff`
 * deleted. One transaction, audited with counts only. Running it again changes nothing.
 */
export async function applySalesRetention(
  db: Db,
  deps: { forgetCharges: (tx: Tx, chargeIds: number[]) => Promise<void> },
  cutoff: string,
  now: Date,
): Promise<SalesRetentionResult> {
  const before = new Date(`${cutoff}T00:00:00-03:00`).toISOString();
  return db.transaction(async (tx) => {
    const orders = (await tx.execute(sql`
      update orders
         set user_id = null,
             buyer_cpf = null,
             address = case when address is null then null else jsonb_build_object(
               'street', '', 'number', '', 'complement', '', 'neighborhood', '', 'zip_code', '',
               'full_name', ${ERASED_NAME}::text, 'phone', '',
               'city', coalesce(address->>'city', ''), 'state', coalesce(address->>'state', '')) end,
             dados_pessoais_apagados_em = ${now.toISOString()}
       where order_date < ${before} and dados_pessoais_apagados_em is null
       returning charge_id`)) as { rows: Array<{ charge_id: number }> };
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
             dados_pessoais_apagados_em = ${now.toISOString()}
        from events e
       where e.id = r.event_id and e.end_data_evento < ${cutoff}
         and r.dados_pessoais_apagados_em is null
       returning r.id, r.charge_id`)) as { rows: Array<{ id: number; charge_id: number }> };
    if (registrations.rows.length > 0)
      await tx.execute(sql`
        update registration_changes
           set detail = detail || jsonb_build_object('de', ${ERASED_NAME}::text, 'para', ${ERASED_NAME}::text)
         where kind = 'transferencia'
           and registration_id in (${sql.join(
             registrations.rows.map((r) => sql`${Number(r.id)}`),
             sql`, `,
           )})`);
    const chargeIds = [
      ...new Set([...orders.rows, ...registrations.rows].map((r) => Number(r.charge_id))),
    ].sort((a, b) => a - b);
    await deps.forgetCharges(tx, chargeIds);
    const pruned = (await tx.execute(sql`
      delete from audit_log where at < ${before} returning id`)) as { rows: unknown[] };
    const result = {
      orders: orders.rows.length,
      registrations: registrations.rows.length,
      charges: chargeIds.length,
      auditLog: pruned.rows.length,
    };
    if (result.orders + result.registrations + result.auditLog > 0)
      await tx.insert(auditLog).values({
        staffId: null,
        staffEmail: SALES_RETENTION_ACTOR,
        action: 'dados_de_vendas_anonimizados',
        entity: 'retencao',
        entityId: null,
        before: null,
        after: {
          pedidos: result.orders,
          inscricoes: result.registrations,
          cobrancas: result.charges,
          registros_de_auditoria_apagados: result.auditLog,
          anteriores_a: cutoff,
        },
        at: now,
      });
    return result;
  });
}
