import type { Db } from '../../db/client.ts';
import { audit, pruneAuditBefore } from '../staff/index.ts';
import type { PersonalDataOwners } from './personal-data-owners.ts';

/** Who the audit log names for the sales retention: the scheduled job, not a person. */
export const SALES_RETENTION_ACTOR = 'sistema (privacy.sales-retention)';

/**
 * The first day (`aaaa-01-01`, store calendar) of the oldest year whose records are still kept
 * `years` after it: the tax authority may assess a year's taxes for five years counted from the first
 * day of the following year (CTN art. 173 I, 174), and the books are kept until then (Código Civil art.
 * 1.194). So on any day of 2031 the sales of 2025 are kept and those of 2024 and before are not.
 */
export function salesRetentionCutoff(today: string, years: number): string {
  return `${Number(today.slice(0, 4)) - years}-01-01`;
}

/**
 * The sales records past their legal period (docs/operations.md, decision 0050): each module owning
 * them erases their personal data (orders placed and registrations of events ended before `cutoff`, an
 * `aaaa-mm-dd` of the store calendar, keep items, amounts and the books' fields; decision 0061), payments
 * then clears their charges' drafts, and staff deletes the audit-log lines as old. One transaction,
 * audited with counts only. Running it again changes nothing.
 */
export async function applySalesRetention(
  db: Db,
  owners: Pick<PersonalDataOwners, 'eraseSalesRecords'>,
  cutoff: string,
  now: Date,
): Promise<Record<string, number>> {
  const before = new Date(`${cutoff}T00:00:00-03:00`);
  return db.transaction(async (tx) => {
    const erased = await owners.eraseSalesRecords(tx, { date: cutoff, before, now });
    const result = {
      ...erased.counts,
      cobrancas: erased.chargeIds.length,
      registros_de_auditoria_apagados: await pruneAuditBefore(tx, before),
    };
    if (Object.entries(result).some(([name, n]) => name !== 'cobrancas' && n > 0))
      await audit(
        tx,
        { id: null, email: SALES_RETENTION_ACTOR },
        {
          action: 'dados_de_vendas_anonimizados',
          entity: 'retencao',
          after: { ...result, anteriores_a: cutoff },
          at: now,
        },
      );
    return result;
  });
}
