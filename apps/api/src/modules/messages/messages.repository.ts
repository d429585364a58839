import { desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type deliveryStates, messageLog, whatsappOptOuts } from '../../db/schema/index.ts';

export type DeliveryState = (typeof deliveryStates)[number];

/**
 * Writes a delivery report on the message the Cloud API accepted with this id, only forward: sent,
 * then delivered, then read; failed ends it. A report Meta delivers again, or one that arrives after a
 * later state (statuses may come out of order), changes nothing. Answers whether the row moved.
 */
export async function recordDelivery(
  db: Db,
  report: { messageId: string; state: DeliveryState; at: Date; error: string | null },
): Promise<boolean> {
  const rank = (v: unknown) =>
    sql`case ${v} when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 when 'failed' then 3 else 0 end`;
  const moved = await db
    .update(messageLog)
    .set({
      delivery: report.state,
      deliveryAt: report.at,
      deliveryError: report.error,
      updatedAt: sql`now()`,
    })
    .where(
      sql`${messageLog.providerMessageId} = ${report.messageId} and ${rank(messageLog.delivery)} < ${rank(report.state)}`,
    )
    .returning({ id: messageLog.id });
  return moved.length > 0;
}

/**
 * Records that a number asked to stop. The same request again (a re-delivered webhook) or an older one
 * changes nothing; a later one replaces it, since the gate compares the latest opt-out with the
 * consent a message relies on (a consent given in between is revoked again). Answers whether it moved.
 */
export async function recordOptOut(
  db: Db | Tx,
  optOut: {
    phone: string;
    request: string;
    messageId: string | null;
    requestedAt: Date;
    staffId?: number | null;
  },
): Promise<boolean> {
  const added = await db
    .insert(whatsappOptOuts)
    .values(optOut)
    .onConflictDoUpdate({
      target: whatsappOptOuts.phone,
      set: {
        request: sql`excluded.request`,
        messageId: sql`excluded.message_id`,
        requestedAt: sql`excluded.requested_at`,
        staffId: sql`excluded.staff_id`,
      },
      setWhere: sql`excluded.requested_at > ${whatsappOptOuts.requestedAt}`,
    })
    .returning({ phone: whatsappOptOuts.phone });
  return added.length > 0;
}

/** The last `limit` messages, newest first, of one channel or both. */
export function listMessages(db: Db, opts: { channel?: 'email' | 'whatsapp'; limit: number }) {
  return db
    .select()
    .from(messageLog)
    .where(opts.channel ? eq(messageLog.channel, opts.channel) : undefined)
    .orderBy(desc(messageLog.createdAt), desc(messageLog.id))
    .limit(opts.limit);
}
