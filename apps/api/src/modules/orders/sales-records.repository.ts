import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { ERASED_NAME, type SalesCutoff, type SalesRecordsErased } from '../accounts/index.ts';

/**
 * Orders placed before the sales records' cutoff (decision 0050) lose the buyer's personal data: the
 * account link, CPF and delivery address (its city and state kept for the books and statistics, the
 * name replaced); items, amounts and notas stay. Answers how many, and their charges.
 */
export async function eraseOrdersPlacedBefore(tx: Tx, cutoff: SalesCutoff): Promise<SalesRecordsErased> {
  const orders = (await tx.execute(sql`
    update orders
       set user_id = null,
           buyer_cpf = null,
           address = case when address is null then null else jsonb_build_object(
             'street', '', 'number', '', 'complement', '', 'neighborhood', '', 'zip_code', '',
             'full_name', ${ERASED_NAME}::text, 'phone', '',
             'city', coalesce(address->>'city', ''), 'state', coalesce(address->>'state', '')) end,
           dados_pessoais_apagados_em = ${cutoff.now.toISOString()}
     where order_date < ${cutoff.before.toISOString()} and dados_pessoais_apagados_em is null
     returning charge_id`)) as { rows: Array<{ charge_id: number }> };
  return { counts: { pedidos: orders.rows.length }, chargeIds: orders.rows.map((r) => Number(r.charge_id)) };
}
