import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { charges } from '../../db/schema/index.ts';

export type ChargeRow = typeof charges.$inferSelect;
export type NewCharge = typeof charges.$inferInsert;
type Conn = Db | Tx;

export async function insertCharge(tx: Conn, values: NewCharge): Promise<ChargeRow> {
  const [row] = await tx.insert(charges).values(values).returning();
  return row!;
}

export async function findChargeByTxid(db: Conn, txid: string): Promise<ChargeRow | null> {
  const [row] = await db.select().from(charges).where(eq(charges.txid, txid)).limit(1);
  return row ?? null;
}

export async function setPixCode(tx: Conn, id: number, pixCopiaECola: string): Promise<void> {
  await tx.update(charges).set({ pixCopiaECola }).where(eq(charges.id, id));
}

/**
 * The one idempotent step of a Pix confirmation: only an active, unexpired charge turns CONCLUIDA,
 * and only the caller that gets the row back goes on to fulfil it. Concurrent callers wait on the
 * row lock and then find the status changed.
 */
export async function markPixPaid(
  tx: Tx,
  txid: string,
  endToEndId: string,
  now: Date,
): Promise<ChargeRow | null> {
  const [row] = await tx
    .update(charges)
    .set({ status: 'CONCLUIDA', paidAt: now, endToEndId })
    .where(
      and(
        eq(charges.txid, txid),
        eq(charges.method, 'pix'),
        eq(charges.status, 'ATIVA'),
        gt(charges.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Card outcome on a charge still waiting for it; the provider's charge id replaces our provisional one. */
export async function settleCardCharge(
  tx: Tx,
  id: number,
  values: {
    status: 'CONCLUIDA' | 'RECUSADA';
    txid: string;
    amountCents: number;
    installments: number;
    now: Date;
  },
): Promise<ChargeRow | null> {
  const [row] = await tx
    .update(charges)
    .set({
      status: values.status,
      txid: values.txid,
      amountCents: values.amountCents,
      installments: values.installments,
      ...(values.status === 'CONCLUIDA' ? { paidAt: values.now } : {}),
    })
    .where(and(eq(charges.id, id), eq(charges.status, 'ATIVA')))
    .returning();
  return row ?? null;
}

/** ATIVA → EXPIRADA once the deadline passed; null when another caller got there first. */
export async function markExpired(tx: Tx, id: number, now: Date): Promise<ChargeRow | null> {
  const [row] = await tx
    .update(charges)
    .set({ status: 'EXPIRADA' })
    .where(and(eq(charges.id, id), eq(charges.status, 'ATIVA'), lte(charges.expiresAt, now)))
    .returning();
  return row ?? null;
}

export async function findDueIds(db: Conn, now: Date, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: charges.id })
    .from(charges)
    .where(and(eq(charges.status, 'ATIVA'), lte(charges.expiresAt, now)))
    .orderBy(asc(charges.expiresAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Locks a charge row for the rest of the transaction. */
export async function lockCharge(tx: Tx, id: number): Promise<ChargeRow | null> {
  const [row] = await tx.select().from(charges).where(eq(charges.id, id)).for('update');
  return row ?? null;
}

/** Drafts of the purpose's charges still open (ATIVA and before their deadline) whose `field` is `value`. */
export async function findOpenDrafts(
  db: Conn,
  purpose: ChargeRow['purpose'],
  match: { field: string; value: string },
  now: Date,
): Promise<unknown[]> {
  const rows = await db
    .select({ draft: charges.draft })
    .from(charges)
    .where(
      and(
        eq(charges.purpose, purpose),
        eq(charges.status, 'ATIVA'),
        gt(charges.expiresAt, now),
        sql`${charges.draft}->>${match.field} = ${match.value}`,
      ),
    );
  return rows.map((r) => r.draft);
}
