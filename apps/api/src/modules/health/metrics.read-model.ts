import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * Read-only sums for the business figures of `/api/metrics`, taken from the database at each scrape so
 * every copy of the shop publishes the same totals, whichever copy did the work (docs/operations.md).
 * Like the dashboard's sums they only read other modules' tables; nothing here writes.
 */

type Rows<T> = { rows: T[] };
const num = (v: unknown) => Number(v ?? 0);

export interface ChargeFigures {
  method: string;
  created: number;
  paid: number;
  expired: number;
  attention: number;
}

/** Per payment method: charges created, paid (returned ones too), expired, needing staff. */
export async function chargeFigures(db: Db): Promise<ChargeFigures[]> {
  const result = (await db.execute(sql`
    select method,
           count(*) as created,
           count(*) filter (where paid_at is not null) as paid,
           count(*) filter (where status = 'EXPIRADA') as expired,
           count(*) filter (where attention is not null) as attention
      from charges group by method`)) as Rows<Record<string, unknown>>;
  return result.rows.map((r) => ({
    method: String(r.method),
    created: num(r.created),
    paid: num(r.paid),
    expired: num(r.expired),
    attention: num(r.attention),
  }));
}

/** Refunds by the provider's last answer (PENDENTE, EM_PROCESSAMENTO, DEVOLVIDO, NAO_REALIZADO). */
export async function refundFigures(db: Db): Promise<Array<{ status: string; count: number }>> {
  const result = (await db.execute(
    sql`select status, count(*) as count from charge_refunds group by status`,
  )) as Rows<Record<string, unknown>>;
  return result.rows.map((r) => ({ status: String(r.status), count: num(r.count) }));
}

/**
 * How far reconciliation is behind: seconds since the deadline of the oldest charge still open past
 * it (0 when none is). Reconciliation runs every minute, so a healthy shop stays near 0–90 s.
 */
export async function reconciliationLagSeconds(db: Db, now: Date): Promise<number> {
  const result = (await db.execute(sql`
    select min(expires_at) as oldest from charges
     where status in ('ATIVA', 'EM_ANALISE') and expires_at < ${now.toISOString()}`)) as Rows<{
    oldest: string | Date | null;
  }>;
  const oldest = result.rows[0]?.oldest;
  return oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0;
}

/** Jobs in the queue's table by name and state (created, retry, active, completed, failed…). */
export async function jobFigures(db: Db): Promise<Array<{ queue: string; state: string; count: number }>> {
  const result = (await db.execute(
    sql`select name, state, count(*) as count from pgboss.job group by name, state`,
  )) as Rows<Record<string, unknown>>;
  return result.rows.map((r) => ({ queue: String(r.name), state: String(r.state), count: num(r.count) }));
}

/**
 * Messages that failed in the 24 hours before `now`, per channel (`message_log`): not sent after the
 * job's last attempt so far (`failed`), and sent but reported undelivered by the WhatsApp webhook.
 */
export async function messageFigures(
  db: Db,
  now: Date,
): Promise<Array<{ channel: string; failed: number; undelivered: number }>> {
  const since = new Date(now.getTime() - 86_400_000).toISOString();
  const result = (await db.execute(sql`
    select channel,
           count(*) filter (where status = 'failed') as failed,
           count(*) filter (where delivery = 'failed') as undelivered
      from message_log where updated_at > ${since} group by channel`)) as Rows<Record<string, unknown>>;
  return result.rows.map((r) => ({
    channel: String(r.channel),
    failed: num(r.failed),
    undelivered: num(r.undelivered),
  }));
}
