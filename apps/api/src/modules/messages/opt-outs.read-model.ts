/**
 * The WhatsApp opt-outs as staff read them, with the e-mail of the staff member who recorded each (the
 * staff table is read, never written: docs/architecture.md §9, rule 11).
 */
import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { staff, whatsappOptOuts } from '../../db/schema/index.ts';

/** The last `limit` opt-outs, newest first, with the e-mail of the staff member who recorded each. */
export function listOptOuts(db: Db | Tx, opts: { limit: number; phone?: string }) {
  return db
    .select({
      phone: whatsappOptOuts.phone,
      request: whatsappOptOuts.request,
      messageId: whatsappOptOuts.messageId,
      requestedAt: whatsappOptOuts.requestedAt,
      staffId: whatsappOptOuts.staffId,
      staffEmail: staff.email,
    })
    .from(whatsappOptOuts)
    .leftJoin(staff, eq(staff.id, whatsappOptOuts.staffId))
    .where(opts.phone ? eq(whatsappOptOuts.phone, opts.phone) : undefined)
    .orderBy(desc(whatsappOptOuts.requestedAt), desc(whatsappOptOuts.phone))
    .limit(opts.limit);
}
