import { STORE_TIME_ZONE } from '@passada/core/calendar';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, registrations } from '../../db/schema/index.ts';

/**
 * The events' money, summed in the database, in centavos (docs/decisions/0039-reports-and-packing-slip.md).
 * One row per registration and one per charge that paid a transfer or a dearer change of distance of
 * one (`cobranca` in its history, docs/decisions/0041 and 0047), so every paid charge of the
 * registration purpose, and every registration's share of an order, is counted once:
 *
 * - gross: every registration's `total_cents` (cancelled ones too: their money came in), net of coupons,
 *   plus what each transfer's or change's charge paid (`after_sale_cents` apart), plus what each team's
 *   purchase of places paid (`team_cents` apart, decision 0073; its refund at the close is refunded);
 * - refunded: on the direct path a charge pays one registration, so what went back is the sum of its
 *   charge's refund rows that did not fail (several partial ones add up), never more than it paid, less
 *   a team's rebate (`eqfaixa…`, decision 0074: it lowered `total_cents` already, so it is not counted
 *   twice; an order's rebates are not among the ids below either); for a
 *   registration paid inside an order, the order's refund rows with its own ids (`inscricao<id>` when
 *   cancelled alone, `troca<id>x…` when a cheaper distance returned the difference), or its whole total
 *   when it was cancelled with its order or a withdrawal (the order's other refunds are the products');
 *   for a transfer's or change's charge, its own refund rows;
 * - net: gross less refunded.
 *
 * The dashboard's registrations heading (orders/dashboard.repository.ts) splits an order's refunds the
 * same way; `dashboard-reconciliation.test.ts` holds both to the cent.
 */
const notFailed = sql.raw(`x.status <> 'NAO_REALIZADO'`);
const perRegistration = (where: SQL) => sql`
  select r.id, r.event_id, r.total_cents, r.discount_cents, r.cancelled_at, r.created_at, c.method,
         0 as after_sale_cents, 0 as team_cents,
         case
           when r.order_id is null then least(r.total_cents, coalesce((
             select sum(x.amount_cents) from charge_refunds x
              where x.charge_id = r.charge_id and ${notFailed}
                and x.refund_id not like 'eqfaixa%'), 0))
           when r.cancelled_at is not null and not exists (
             select 1 from charge_refunds x
              where x.charge_id = r.charge_id and x.refund_id = 'inscricao' || r.id and ${notFailed})
             then r.total_cents
           else least(r.total_cents, coalesce((
             select sum(x.amount_cents) from charge_refunds x
              where x.charge_id = r.charge_id and ${notFailed}
                and (x.refund_id = 'inscricao' || r.id or x.refund_id like 'troca' || r.id || 'x%')), 0))
         end as refunded_cents
    from registrations r
    join charges c on c.id = r.charge_id
   where ${where}
  union all
  select null, r.event_id, c.amount_cents, 0, null, c.paid_at, c.method, c.amount_cents, 0,
         least(c.amount_cents, coalesce((
           select sum(x.amount_cents) from charge_refunds x where x.charge_id = c.id and ${notFailed}), 0))
    from registration_changes rc
    join charges c on c.id = (rc.detail->>'cobranca')::int
    join registrations r on r.id = rc.registration_id
   where rc.kind in ('transferencia', 'troca_distancia', 'diferenca_preco') and c.purpose = 'registration'
     and c.paid_at is not null and c.id <> r.charge_id and ${where}
  union all
  -- A team's purchase of places (decision 0073): the batch is aliased r so the event filter applies.
  select null, r.event_id, c.amount_cents, 0, null, c.paid_at, c.method, 0, c.amount_cents,
         least(c.amount_cents, coalesce((
           select sum(x.amount_cents) from charge_refunds x where x.charge_id = c.id and ${notFailed}), 0))
    from team_place_batches r
    join charges c on c.id = r.charge_id
   where c.paid_at is not null and ${where}`;

export interface MoneyRow {
  registrations: number;
  cancelled: number;
  grossCents: number;
  discountCents: number;
  refundedCents: number;
  /** Of the gross, what transfers' and changes' charges paid. */
  afterSaleCents: number;
  /** Of the gross, what teams' purchases of places paid. */
  teamCents: number;
}

type Raw = Record<string, unknown>;
const rowsOf = async (db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows;
const money = (r: Raw): MoneyRow => ({
  registrations: Number(r.registrations),
  cancelled: Number(r.cancelled),
  grossCents: Number(r.gross_cents),
  discountCents: Number(r.discount_cents),
  refundedCents: Number(r.refunded_cents),
  afterSaleCents: Number(r.after_sale_cents),
  teamCents: Number(r.team_cents),
});
const sums = sql`count(id)::int as registrations,
  count(*) filter (where cancelled_at is not null)::int as cancelled,
  coalesce(sum(total_cents), 0)::int as gross_cents,
  coalesce(sum(discount_cents), 0)::int as discount_cents,
  coalesce(sum(refunded_cents), 0)::int as refunded_cents,
  coalesce(sum(after_sale_cents), 0)::int as after_sale_cents,
  coalesce(sum(team_cents), 0)::int as team_cents`;

/** Every event, newest first, with its money (events without registrations answer zeros). */
export async function moneyPerEvent(db: Db) {
  const rows = await rowsOf(
    db,
    sql`with m as (${perRegistration(sql`true`)})
      select e.id, e.nome_evento as name, to_char(e.start_data_evento, 'YYYY-MM-DD') as start_date,
             count(m.id)::int as registrations,
             count(m.id) filter (where m.cancelled_at is not null)::int as cancelled,
             coalesce(sum(m.total_cents), 0)::int as gross_cents,
             coalesce(sum(m.discount_cents), 0)::int as discount_cents,
             coalesce(sum(m.refunded_cents), 0)::int as refunded_cents,
             coalesce(sum(m.after_sale_cents), 0)::int as after_sale_cents,
             coalesce(sum(m.team_cents), 0)::int as team_cents
        from events e left join m on m.event_id = e.id
       group by e.id, e.nome_evento, e.start_data_evento
       order by e.id desc`,
  );
  return rows.map((r) => ({
    eventId: Number(r.id),
    name: String(r.name),
    startDate: String(r.start_date),
    ...money(r),
  }));
}

/** One event's money in all (`method` null) and per payment method, in one grouping. */
export async function moneyByMethod(db: Db, eventId: number) {
  const rows = await rowsOf(
    db,
    sql`with m as (${perRegistration(sql`r.event_id = ${eventId}`)})
      select method, grouping(method) as is_total, ${sums}
        from m group by grouping sets ((method), ())
       order by is_total desc, method`,
  );
  const total = rows.find((r) => Number(r.is_total) === 1);
  return {
    total: total
      ? money(total)
      : {
          registrations: 0,
          cancelled: 0,
          grossCents: 0,
          discountCents: 0,
          refundedCents: 0,
          afterSaleCents: 0,
          teamCents: 0,
        },
    methods: rows
      .filter((r) => Number(r.is_total) === 0)
      .map((r) => ({ method: String(r.method) as 'pix' | 'cartao' | 'gratuito', ...money(r) })),
  };
}

/**
 * What each race of an event's registrations brought in before coupons, so that the per-lot and
 * per-price tables add up to the gross less the after-sale charges (the report's identity:
 * Σ lines − descontos + pos_venda = bruto). A registration brings its `total_cents` plus its coupon's
 * discount, whatever changed since: a change of distance moves the race to its new category at what it
 * was sold for (the difference is the after-sale charge's, or a refund), a team's rebate (decision 0074)
 * lowers it. Split over its races in proportion to their prices now (running sums, so the parts add up
 * to the cent); a registration of free races puts it all on its last race.
 */
const racesOf = (eventId: number) => sql`
  select rc.category_id, rc.lote, rc.price_rule_id, r.cancelled_at, r.created_at, r.meia_entrada,
         case when sum(rc.price_cents) over w = 0
              then case when row_number() over w = count(*) over w
                        then r.total_cents + r.discount_cents else 0 end
              else floor((r.total_cents + r.discount_cents)::numeric
                         * sum(rc.price_cents) over (w order by rc.id rows unbounded preceding)
                         / sum(rc.price_cents) over w)
                 - floor((r.total_cents + r.discount_cents)::numeric
                         * (sum(rc.price_cents) over (w order by rc.id rows unbounded preceding) - rc.price_cents)
                         / sum(rc.price_cents) over w)
         end::int as value_cents
    from registration_categories rc
    join registrations r on r.id = rc.registration_id
   where r.event_id = ${eventId}
  window w as (partition by rc.registration_id)`;

/**
 * One event's categories sold per lot (null: the category's own price, no lot in force): how many and
 * what they brought in before coupons (the registrations' discounts are the report's `descontos`).
 */
export async function salesByLot(db: Db, eventId: number) {
  const rows = await rowsOf(
    db,
    sql`with races as (${racesOf(eventId)})
        select ec.nome_categoria as category, races.lote as lot, count(*)::int as n,
               sum(races.value_cents)::int as cents,
               count(*) filter (where races.cancelled_at is not null)::int as cancelled
          from races
          join event_categories ec on ec.id = races.category_id
         group by ec.id, ec.nome_categoria, races.lote
         order by ec.nome_categoria, min(races.created_at), races.lote`,
  );
  return rows.map((r) => ({
    category: String(r.category),
    lot: r.lot === null ? null : String(r.lot),
    count: Number(r.n),
    cancelled: Number(r.cancelled),
    cents: Number(r.cents),
  }));
}

/**
 * One event's races sold per price (docs/decisions/0068): each special price's rule by name, the 60+
 * half price, and the lot's price; how many, how many cancelled, and what they brought in before coupons
 * (the same values as per lot: the two tables add up the same).
 */
export async function salesByRule(db: Db, eventId: number) {
  const rows = await rowsOf(
    db,
    sql`with races as (${racesOf(eventId)})
        select coalesce(pr.nome, case when races.meia_entrada then 'Meia-entrada 60+' else 'Preço do lote' end) as rule,
               pr.id as rule_id, count(*)::int as n, sum(races.value_cents)::int as cents,
               count(*) filter (where races.cancelled_at is not null)::int as cancelled
          from races
          left join price_rules pr on pr.id = races.price_rule_id
         group by 1, 2
         order by 2 nulls first, 1`,
  );
  return rows.map((r) => ({
    rule: String(r.rule),
    ruleId: r.rule_id === null ? null : Number(r.rule_id),
    count: Number(r.n),
    cancelled: Number(r.cancelled),
    cents: Number(r.cents),
  }));
}

// A literal, not a bound parameter: the same expression in SELECT and GROUP BY must be the same text.
const zone = sql.raw(`'${STORE_TIME_ZONE}'`);

/** One event's registrations per store calendar day of their creation (cancelled ones counted apart). */
export async function registrationsPerDay(db: Db, eventId: number) {
  const day = sql`to_char(created_at at time zone ${zone}, 'YYYY-MM-DD')`;
  const rows = await rowsOf(
    db,
    sql`select ${day} as day, count(*)::int as n,
               count(*) filter (where cancelled_at is not null)::int as cancelled
          from registrations where event_id = ${eventId}
         group by ${day} order by 1`,
  );
  return rows.map((r) => ({ day: String(r.day), count: Number(r.n), cancelled: Number(r.cancelled) }));
}

/**
 * Registrations per event (not cancelled), and how many of them were free, for the dashboard: counted
 * event by event through the registrations' event index, not by one pass over every registration.
 */
export function registrationsPerEvent(db: Db) {
  const counts = db
    .select({
      n: sql<number>`count(*)::int`.as('n'),
      free: sql<number>`(count(*) filter (where ${registrations.totalCents} = 0))::int`.as('free'),
    })
    .from(registrations)
    .where(and(eq(registrations.eventId, events.id), isNull(registrations.cancelledAt)))
    .as('counts');
  return db
    .select({ id: events.id, name: events.name, n: counts.n, free: counts.free })
    .from(events)
    .leftJoinLateral(counts, sql`true`)
    .orderBy(desc(events.id));
}

/**
 * The event's kit pickups (docs/decisions/0063, later): how many, by the runner, by the person they
 * authorised or with their team's kits (0067, later), and the item to bring: how many brought it and how much in all.
 */
export async function kitPickups(db: Db, eventId: number) {
  const [row] = await rowsOf(
    db,
    sql`select count(*)::int as total,
               count(*) filter (where c.retirado_por = 'autorizado')::int as delegated,
               count(*) filter (where c.retirado_por = 'equipe')::int as by_team,
               count(c.item_quantidade)::int as brought,
               coalesce(sum(c.item_quantidade), 0)::text as quantity
          from registration_checkins c
          join registrations r on r.id = c.registration_id
         where r.event_id = ${eventId}`,
  );
  return {
    total: Number(row?.total ?? 0),
    delegated: Number(row?.delegated ?? 0),
    byTeam: Number(row?.by_team ?? 0),
    brought: Number(row?.brought ?? 0),
    quantity: Number(row?.quantity ?? 0),
  };
}
