import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * Read-only figures for the dashboard, summed in the database from the paid charges of every purpose
 * (docs/decisions/0009) and their refund rows that did not fail, so that money that came in is counted
 * once, under one heading, on the store calendar day (America/Fortaleza) its charge was paid, and what
 * went back from a charge comes off that same day and heading:
 *
 * - shop (`loja`): an order's charge less the registrations a cart paid inside it (docs/decisions/0020),
 *   and the charge that paid an exchange's difference (`exchange`, docs/decisions/0040);
 * - registrations (`inscricoes`): a registration's own charge (direct path) or its share of an order,
 *   and the charges of its transfers and dearer changes of distance (`cobranca` in its history,
 *   docs/decisions/0041 and 0047).
 *
 * Of an order's refunds, the registrations' part is what went back for them by their own refund ids
 * (`inscricao<id>` when one is cancelled alone, `troca<id>x…` when a cheaper distance returned the
 * difference) or, for one cancelled with its order or a withdrawal, its whole total; the rest is the
 * shop's. The same split is the reports' (registrations/event-report.repository.ts): the reconciliation
 * test (`dashboard-reconciliation.test.ts`) holds both to the cent.
 */
// A literal, not a bound parameter: the same expression in SELECT and GROUP BY must be the same text.
const zone = sql.raw(`'${STORE_TIME_ZONE}'`);

type Raw = Record<string, unknown>;
const rowsOf = async (db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows;

/**
 * One row per heading a paid charge feeds: `heading` (`loja`, `inscricoes`), `is_order` (the order's
 * own charge), `paid_at`, `in_cents` (what came in) and `back_cents` (what of it went back).
 */
const moneyLines = (since: Date) => sql`
  with paid as (
    select c.id, c.purpose, c.amount_cents, c.paid_at,
           coalesce((select sum(x.amount_cents) from charge_refunds x
                      where x.charge_id = c.id and x.status <> 'NAO_REALIZADO'), 0)::bigint as back_cents
      from charges c
     where c.paid_at is not null and c.paid_at >= ${since.toISOString()}::timestamptz
  ),
  in_order as (
    select r.order_id,
           sum(r.total_cents)::bigint as total_cents,
           sum(case
             when r.cancelled_at is not null and not exists (
               select 1 from charge_refunds x
                where x.charge_id = r.charge_id and x.refund_id = 'inscricao' || r.id
                  and x.status <> 'NAO_REALIZADO') then r.total_cents
             else least(r.total_cents, coalesce((
               select sum(x.amount_cents) from charge_refunds x
                where x.charge_id = r.charge_id and x.status <> 'NAO_REALIZADO'
                  and (x.refund_id = 'inscricao' || r.id or x.refund_id like 'troca' || r.id || 'x%')), 0))
           end)::bigint as back_cents
      from paid p join registrations r on r.charge_id = p.id and r.order_id is not null
     group by r.order_id
  ),
  order_parts as (
    select p.paid_at, p.amount_cents, p.back_cents,
           coalesce(io.total_cents, 0) as reg_cents,
           least(p.back_cents, coalesce(io.back_cents, 0)) as reg_back_cents
      from paid p join orders o on o.charge_id = p.id left join in_order io on io.order_id = o.id
  )
  select 'loja' as heading, true as is_order, paid_at,
         amount_cents - reg_cents as in_cents, back_cents - reg_back_cents as back_cents
    from order_parts
  union all
  select 'inscricoes', false, paid_at, reg_cents, reg_back_cents from order_parts where reg_cents > 0
  union all
  select 'inscricoes', false, p.paid_at, p.amount_cents, least(p.amount_cents, p.back_cents)
    from paid p join registrations r on r.charge_id = p.id and r.order_id is null
  union all
  select 'inscricoes', false, p.paid_at, p.amount_cents, p.back_cents
    from paid p
   where p.purpose = 'registration'
     and exists (select 1 from registration_changes rc
                  where (rc.detail->>'cobranca')::int = p.id
                    and rc.kind in ('transferencia', 'troca_distancia', 'diferenca_preco'))
  union all
  select 'loja', false, p.paid_at, p.amount_cents, p.back_cents
    from paid p join order_returns orr on orr.difference_charge_id = p.id
   where p.purpose = 'exchange'`;

/** Net sales (what came in less what of it went back) per heading and store calendar day since `since`. */
export async function dailySales(db: Db, since: Date) {
  const day = sql`to_char(paid_at at time zone ${zone}, 'YYYY-MM-DD')`;
  const rows = await rowsOf(
    db,
    sql`select heading, ${day} as day, sum(in_cents - back_cents)::int as cents
          from (${moneyLines(since)}) m group by heading, ${day}`,
  );
  const of = (heading: string) =>
    rows.filter((r) => r.heading === heading).map((r) => ({ day: String(r.day), cents: Number(r.cents) }));
  return { shop: of('loja'), regs: of('inscricoes') };
}

/**
 * Money paid since `since` under every heading (cancelled orders too: their money came in) and what of
 * it went back; and the orders paid, with their own charges' total, for the average ticket.
 */
export async function orderTotals(db: Db, since: Date) {
  const [row] = await rowsOf(
    db,
    sql`select count(*) filter (where is_order and heading = 'loja')::int as count,
               coalesce(sum(in_cents), 0)::int as gross_cents,
               coalesce(sum(back_cents), 0)::int as refunded_cents,
               (select coalesce(sum(c.amount_cents), 0) from charges c join orders o on o.charge_id = c.id
                 where c.paid_at >= ${since.toISOString()}::timestamptz)::int as orders_cents
          from (${moneyLines(since)}) m`,
  );
  return {
    count: Number(row?.count ?? 0),
    grossCents: Number(row?.gross_cents ?? 0),
    refundedCents: Number(row?.refunded_cents ?? 0),
    ordersCents: Number(row?.orders_cents ?? 0),
  };
}
