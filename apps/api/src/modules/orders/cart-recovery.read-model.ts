import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  carts,
  charges,
  eventCategories,
  eventDays,
  events,
  orders,
  recoveryOptOuts,
  recoveryReminders,
  users,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

async function rowsOf<T>(db: Conn, query: SQL): Promise<{ rows: T[] }> {
  return (await db.execute(query)) as unknown as { rows: T[] };
}

/**
 * The reminders' reads of other modules' tables (docs/decisions/0072): the accounts' e-mail, the
 * payments' charges and the events' names. Nothing here writes.
 */

/** A cart's reminder key: the account and the instant (ms) the cart began; the SQL below writes it the same way. */
export const cartRef = (userId: number, startedAt: Date) => `${userId}:${startedAt.getTime()}`;

/**
 * Carts to remind: holding something, untouched since `leftBefore`, begun after `since` (nothing older
 * is news), of an account not erased and not opted out, not reminded for this
 * cart, and with no order placed since the cart began.
 */
export async function cartsToRemind(db: Conn, leftBefore: Date, since: Date) {
  const rows = await rowsOf<{ user_id: number; started_at: string | Date }>(
    db,
    sql`
    select c.user_id, c.started_at
    from ${carts} c
    join ${users} u on u.id = c.user_id and u.deleted_at is null
    where jsonb_array_length(c.items) > 0
      and c.updated_at <= ${leftBefore.toISOString()}
      and c.started_at >= ${since.toISOString()}
      and not exists (select 1 from ${recoveryOptOuts} o where o.user_id = c.user_id)
      and not exists (
        select 1 from ${recoveryReminders} r
        where r.kind = 'carrinho'
          and r.ref = c.user_id || ':' || (extract(epoch from c.started_at) * 1000)::bigint)
      and not exists (select 1 from ${orders} o where o.user_id = c.user_id and o.order_date >= c.started_at)
    order by c.updated_at
    limit 500`,
  );
  return rows.rows
    .map((r) => ({ userId: Number(r.user_id), startedAt: new Date(r.started_at) }))
    .map((r) => ({ ...r, ref: cartRef(r.userId, r.startedAt) }));
}

/**
 * Registrations left unpaid to remind: a registration charge that expired or was refused, made between
 * `since` and `leftBefore`, by an account not erased and not opted out, for an
 * event still taking registrations (`today` on or before its deadline), with no registration or order
 * charge of the same account paid, pending or open since, and not reminded yet.
 */
export async function registrationsToRemind(db: Conn, leftBefore: Date, since: Date, today: string) {
  const rows = await rowsOf<{ txid: string; user_id: number; event_id: number }>(
    db,
    sql`
    select ch.txid, ch.user_id, e.id as event_id
    from ${charges} ch
    join ${users} u on u.id = ch.user_id and u.deleted_at is null
    join ${eventCategories} c on c.id = (ch.draft -> 'items' -> 0 ->> 'categoryId')::int
    join ${eventDays} d on d.id = c.day_id
    join ${events} e on e.id = d.event_id
    where ch.purpose = 'registration'
      and ch.status in ('EXPIRADA', 'RECUSADA')
      and jsonb_typeof(ch.draft -> 'items') = 'array'
      and jsonb_array_length(ch.draft -> 'items') > 0
      and ch.created_at <= ${leftBefore.toISOString()}
      and ch.created_at >= ${since.toISOString()}
      and e.prazo_inscricao >= ${today}
      and not exists (select 1 from ${recoveryOptOuts} o where o.user_id = ch.user_id)
      and not exists (
        select 1 from ${recoveryReminders} r where r.kind = 'inscricao' and r.ref = ch.txid)
      and not exists (
        select 1 from ${charges} later
        where later.user_id = ch.user_id
          and later.purpose in ('registration', 'order')
          and later.created_at > ch.created_at
          and later.status in ('ATIVA', 'CONCLUIDA', 'EM_ANALISE'))
    order by ch.created_at
    limit 500`,
  );
  return rows.rows.map((r) => ({ txid: r.txid, userId: Number(r.user_id), eventId: Number(r.event_id) }));
}

/** Who a reminder goes to: the account's first name and e-mail; null when it was erased meanwhile. */
export async function recipient(db: Conn, userId: number) {
  const rows = await rowsOf<{ email: string; full_name: string }>(
    db,
    sql`
    select email, full_name from ${users} where id = ${userId} and deleted_at is null`,
  );
  const row = rows.rows[0];
  return row ? { email: row.email, firstName: row.full_name.trim().split(/\s+/)[0] ?? '' } : null;
}

/** The category a registration charge was for (its first race); null once its draft was cleared. */
export async function chargeCategory(db: Conn, txid: string): Promise<number | null> {
  const rows = await rowsOf<{ category: number | null }>(
    db,
    sql`select (draft -> 'items' -> 0 ->> 'categoryId')::int as category from ${charges} where txid = ${txid}`,
  );
  const category = rows.rows[0]?.category;
  return category === null || category === undefined ? null : Number(category);
}

export async function eventName(db: Conn, eventId: number): Promise<string | null> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select nome_evento as name from ${events} where id = ${eventId}`,
  );
  return rows.rows[0]?.name ?? null;
}

/**
 * Reminded accounts that bought after their reminder (an order, or a registration charge paid), for
 * the back office's figure: reminders sent since `since`.
 */
export async function boughtAfterReminder(db: Conn, since: Date): Promise<number> {
  const rows = await rowsOf<{ n: number }>(
    db,
    sql`
    select count(*)::int as n from ${recoveryReminders} r
    where r.sent_at >= ${since.toISOString()}
      and exists (
        select 1 from ${charges} ch
        where ch.user_id = r.user_id and ch.status = 'CONCLUIDA' and ch.paid_at >= r.sent_at)`,
  );
  return Number(rows.rows[0]?.n ?? 0);
}
