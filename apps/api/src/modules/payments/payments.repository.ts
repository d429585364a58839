import { and, desc, eq, gt, gte, ilike, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import {
  chargeRefunds,
  charges,
  type paymentEventSources,
  paymentEvents,
  users,
} from '../../db/schema/index.ts';

export type ChargeRow = typeof charges.$inferSelect;
export type NewCharge = typeof charges.$inferInsert;
export type RefundRow = typeof chargeRefunds.$inferSelect;
export type ChargeStatusName = ChargeRow['status'];
export type PaymentEventSource = (typeof paymentEventSources)[number];
type Conn = Db | Tx;

/** A charge that still holds units and may still be paid. */
export const OPEN_STATUSES = ['ATIVA', 'EM_ANALISE'] as const satisfies ChargeStatusName[];
/** A charge that ended without being paid: its units or places went back. */
export const ENDED_UNPAID = [
  'EXPIRADA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
  'RECUSADA',
  'FALHOU',
] as const satisfies ChargeStatusName[];

/** A Pix ended by its deadline (ours, or removed at the bank): unpaid, everything it held given back. */
export const EXPIRED_STATUSES = [
  'EXPIRADA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
] as const satisfies ChargeStatusName[];

export async function insertCharge(tx: Conn, values: NewCharge): Promise<ChargeRow> {
  const [row] = await tx.insert(charges).values(values).returning();
  return row!;
}

// The payment path's fixed queries, built once (db/prepared.ts).
const chargeByTxid = prepared('charge_by_txid', (c) =>
  c
    .select()
    .from(charges)
    .where(eq(charges.txid, sql.placeholder('txid')))
    .limit(1),
);
const chargeById = prepared('charge_by_id', (c) =>
  c
    .select()
    .from(charges)
    .where(eq(charges.id, sql.placeholder('id')))
    .limit(1),
);
const chargeLocked = prepared('charge_for_update', (c) =>
  c
    .select()
    .from(charges)
    .where(eq(charges.id, sql.placeholder('id')))
    .for('update'),
);
const openCount = prepared('charges_open_count', (c) =>
  c
    .select({ n: sql<number>`count(*)::int` })
    .from(charges)
    .where(and(eq(charges.userId, sql.placeholder('userId')), inArray(charges.status, OPEN_STATUSES))),
);
const openPix = prepared('charges_open_pix', (c) =>
  c
    .select()
    .from(charges)
    .where(
      and(
        eq(charges.userId, sql.placeholder('userId')),
        eq(charges.purpose, sql.placeholder('purpose')),
        eq(charges.method, 'pix'),
        eq(charges.status, 'ATIVA'),
      ),
    ),
);

export async function findChargeByTxid(db: Conn, txid: string): Promise<ChargeRow | null> {
  const [row] = await chargeByTxid(db).execute({ txid });
  return row ?? null;
}

export async function findChargeById(db: Conn, id: number): Promise<ChargeRow | null> {
  const [row] = await chargeById(db).execute({ id });
  return row ?? null;
}

export async function findCardCharge(
  db: Conn,
  ref: { id?: number; providerChargeId?: string },
): Promise<ChargeRow | null> {
  const conds = [
    ...(ref.id !== undefined ? [eq(charges.id, ref.id)] : []),
    ...(ref.providerChargeId ? [eq(charges.providerChargeId, ref.providerChargeId)] : []),
  ];
  if (!conds.length) return null;
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.method, 'cartao'), or(...conds)))
    .limit(1);
  return row ?? null;
}

/** The Pix charge paid by this transfer (its end-to-end id), if any. */
export async function findPixByEndToEndId(db: Conn, endToEndId: string): Promise<ChargeRow | null> {
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.method, 'pix'), eq(charges.endToEndId, endToEndId)))
    .limit(1);
  return row ?? null;
}

export async function findByIdempotencyKey(db: Conn, userId: number, key: string): Promise<ChargeRow | null> {
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, userId), eq(charges.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

/** Locks a charge row for the rest of the transaction. */
export async function lockCharge(tx: Tx, id: number): Promise<ChargeRow | null> {
  const [row] = await chargeLocked(tx).execute({ id });
  return row ?? null;
}

export async function updateCharge(tx: Conn, id: number, values: Partial<NewCharge>): Promise<ChargeRow> {
  const [row] = await tx.update(charges).set(values).where(eq(charges.id, id)).returning();
  return row!;
}

/** How many charges the account has open (still holding units). */
export async function countOpen(tx: Conn, userId: number): Promise<number> {
  const [row] = await openCount(tx).execute({ userId });
  return row?.n ?? 0;
}

/** The account's open Pix charges for one purpose (a new one replaces them). */
export async function findOpenPix(
  tx: Conn,
  userId: number,
  purpose: ChargeRow['purpose'],
): Promise<ChargeRow[]> {
  return openPix(tx).execute({ userId, purpose });
}

/**
 * What reconciliation looks at: every open charge, and Pix charges closed by our side within the
 * last day (a payment may have raced their expiry).
 */
export async function findToReconcile(db: Conn, now: Date, limit: number): Promise<number[]> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const rows = await db
    .select({ id: charges.id })
    .from(charges)
    .where(
      or(
        inArray(charges.status, OPEN_STATUSES),
        and(
          eq(charges.method, 'pix'),
          inArray(charges.status, ['EXPIRADA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR']),
          gt(charges.expiresAt, dayAgo),
          lte(charges.expiresAt, now),
        ),
        // A card ended while open (`endOpenFor`): its outcome is still asked for a day, so a late
        // approval is refunded.
        and(
          eq(charges.method, 'cartao'),
          eq(charges.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR'),
          isNotNull(charges.providerChargeId),
          gt(charges.expiresAt, dayAgo),
        ),
      ),
    )
    .orderBy(charges.expiresAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Charges that ended unpaid (units released) whose draft still holds personal data, ended and past
 * their deadline before `before`: reconciliation stopped watching them for a late payment.
 */
export async function findEndedWithPersonalData(db: Conn, before: Date, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: charges.id })
    .from(charges)
    .where(
      and(
        isNull(charges.personalDataClearedAt),
        inArray(charges.status, ENDED_UNPAID),
        lte(charges.expiresAt, before),
        lte(sql`coalesce(${charges.updatedAt}, ${charges.createdAt})`, before),
      ),
    )
    .orderBy(charges.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Every charge of an account whose draft still holds personal data. */
export async function findWithPersonalDataOf(db: Conn, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: charges.id })
    .from(charges)
    .where(and(eq(charges.userId, userId), isNull(charges.personalDataClearedAt)));
  return rows.map((r) => r.id);
}

/** Drafts of the purpose's open charges whose `field` is `value`, other than `exceptUserId`'s. */
export async function findOpenDrafts(
  db: Conn,
  purpose: ChargeRow['purpose'],
  match: { field: string; value: string } | undefined,
  onlyUserId?: number,
): Promise<unknown[]> {
  const rows = await db
    .select({ draft: charges.draft })
    .from(charges)
    .where(
      and(
        eq(charges.purpose, purpose),
        inArray(charges.status, OPEN_STATUSES),
        match ? sql`${charges.draft}->>${match.field} = ${match.value}` : undefined,
        onlyUserId === undefined ? undefined : eq(charges.userId, onlyUserId),
      ),
    );
  return rows.map((r) => r.draft);
}

/** The purpose's open charges (Pix and card) whose draft holds `value` at `path` (a JSON path, e.g. change → registrationId). */
export async function findOpenByDraft(
  db: Conn,
  purpose: ChargeRow['purpose'],
  path: readonly string[],
  value: string,
): Promise<ChargeRow[]> {
  return db
    .select()
    .from(charges)
    .where(
      and(
        eq(charges.purpose, purpose),
        inArray(charges.status, OPEN_STATUSES),
        sql`${charges.draft} #>> ${`{${path.join(',')}}`}::text[] = ${value}`,
      ),
    );
}

const eventAppended = prepared('payment_event_insert', (c) =>
  c.insert(paymentEvents).values({
    chargeId: sql.placeholder('chargeId'),
    source: sql.placeholder('source'),
    kind: sql.placeholder('kind'),
    raw: sql.placeholder('raw'),
    createdAt: sql.placeholder('at'),
  }),
);

export async function appendEvent(
  tx: Conn,
  values: { chargeId: number; source: PaymentEventSource; kind: string; raw: unknown; at: Date },
): Promise<void> {
  await eventAppended(tx).execute({ ...values, raw: values.raw ?? null });
}

/**
 * The provider created the Pix: its copy-and-paste code and deadline go on the charge and its event is
 * logged, in one statement (atomic, and one round trip on the busiest path of the shop).
 */
export async function recordPixCreated(
  db: Conn,
  id: number,
  values: { pixCopiaECola: string; expiresAt: Date },
  event: { source: PaymentEventSource; kind: string; raw: unknown; at: Date },
): Promise<void> {
  await db.execute(sql`
    with updated as (
      update ${charges}
      set pix_copia_e_cola = ${values.pixCopiaECola}, expires_at = ${values.expiresAt.toISOString()}::timestamptz
      where id = ${id}
      returning id
    )
    insert into ${paymentEvents} (charge_id, source, kind, raw, created_at)
    select id, ${event.source}, ${event.kind}, ${JSON.stringify(event.raw ?? null)}::jsonb,
      ${event.at.toISOString()}::timestamptz
    from updated`);
}

export async function listEvents(db: Conn, chargeId: number) {
  return db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.chargeId, chargeId))
    .orderBy(paymentEvents.id);
}

/** Idempotent by our refund id: the same id answers the row first written with it. */
export async function insertRefund(tx: Conn, values: typeof chargeRefunds.$inferInsert): Promise<RefundRow> {
  const [row] = await tx
    .insert(chargeRefunds)
    .values(values)
    .onConflictDoNothing({ target: chargeRefunds.refundId })
    .returning();
  if (row) return row;
  return (await findRefundById(tx, values.refundId))!;
}

export async function findRefundById(db: Conn, refundId: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(chargeRefunds).where(eq(chargeRefunds.refundId, refundId));
  return row ?? null;
}

/** The charge's latest refund (a late payment or a cancellation has only one). */
export async function findRefund(db: Conn, chargeId: number): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(chargeRefunds)
    .where(eq(chargeRefunds.chargeId, chargeId))
    .orderBy(desc(chargeRefunds.id))
    .limit(1);
  return row ?? null;
}

/** Every refund of the charge, oldest first. */
export async function listRefunds(db: Conn, chargeId: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(chargeRefunds)
    .where(eq(chargeRefunds.chargeId, chargeId))
    .orderBy(chargeRefunds.id);
}

/**
 * What was sent back (or is being sent back) of the charge, whatever each refund's status: money asked
 * back counts until staff resolve it, so nothing is ever returned twice. Read under the charge's row lock.
 */
export async function refundedCents(db: Conn, chargeId: number): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${chargeRefunds.amountCents}), 0)` })
    .from(chargeRefunds)
    .where(eq(chargeRefunds.chargeId, chargeId));
  return Number(row?.sum ?? 0);
}

/** Takes an unanswered refund for sending: false when another caller took it first. */
export async function claimRefund(tx: Conn, id: number, status: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(chargeRefunds)
    .set({ status, updatedAt: at })
    .where(and(eq(chargeRefunds.id, id), eq(chargeRefunds.status, 'PENDENTE')))
    .returning({ id: chargeRefunds.id });
  return rows.length > 0;
}

export async function setRefundStatus(tx: Conn, id: number, status: string, at: Date): Promise<void> {
  await tx.update(chargeRefunds).set({ status, updatedAt: at }).where(eq(chargeRefunds.id, id));
}

/** Refunds recorded but never answered by the provider (a crash between the two). */
export async function findUnsentRefunds(db: Conn, limit: number): Promise<RefundRow[]> {
  return db.select().from(chargeRefunds).where(eq(chargeRefunds.status, 'PENDENTE')).limit(limit);
}

/** Refunds the provider took but the payer's bank has not settled yet (Efí's EM_PROCESSAMENTO). */
export async function findRefundsInProgress(db: Conn, limit: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(chargeRefunds)
    .where(eq(chargeRefunds.status, 'EM_PROCESSAMENTO'))
    .orderBy(chargeRefunds.id)
    .limit(limit);
}

/** The refunds of the Pix charge paid by this transfer. */
export async function findRefundsByEndToEndId(db: Conn, endToEndId: string): Promise<RefundRow[]> {
  const rows = await db
    .select({ refund: chargeRefunds })
    .from(chargeRefunds)
    .innerJoin(charges, eq(charges.id, chargeRefunds.chargeId))
    .where(and(eq(charges.method, 'pix'), eq(charges.endToEndId, endToEndId)))
    .orderBy(chargeRefunds.id);
  return rows.map((r) => r.refund);
}

/**
 * The account's charges worth showing: pending, refused or returned, since `since`, each with its refunds
 * summed (amount) and its latest one (status, when).
 */
export async function listNoteworthy(db: Conn, userId: number, since: Date) {
  const rows = await db
    .select()
    .from(charges)
    .where(
      and(
        eq(charges.userId, userId),
        inArray(charges.status, ['EM_ANALISE', 'DEVOLVIDA', 'RECUSADA']),
        gt(charges.createdAt, since),
      ),
    )
    .orderBy(desc(charges.createdAt), desc(charges.id));
  const ids = rows.map((c) => c.id);
  const refunds = ids.length
    ? await db
        .select()
        .from(chargeRefunds)
        .where(inArray(chargeRefunds.chargeId, ids))
        .orderBy(chargeRefunds.id)
    : [];
  return rows.map((charge) => {
    const own = refunds.filter((r) => r.chargeId === charge.id);
    const last = own.at(-1);
    return {
      charge,
      refund: last ? { ...last, amountCents: own.reduce((sum, r) => sum + r.amountCents, 0) } : null,
    };
  });
}

/**
 * Charges staff must look at: every charge flagged, and every card charge that FALHOU (the provider
 * failed or never answered after receiving the card, so money may have been taken). A Pix that FALHOU
 * never existed at the provider, so nobody could pay it.
 */
export async function listNeedingAttention(db: Conn) {
  return (
    db
      .select()
      .from(charges)
      // Literals, as in the partial index `charges_attention_idx`, so every plan can prove it covers the rows.
      .where(
        sql`${charges.attention} is not null or (${charges.method} = 'cartao' and ${charges.status} = 'FALHOU')`,
      )
      .orderBy(desc(charges.id))
  );
}

/** What the back office's orders list filters unpaid charges by (the same filters as orders). */
export interface StaffChargeFilter {
  purpose: ChargeRow['purpose'];
  statuses: readonly ChargeStatusName[];
  from?: Date;
  to?: Date;
  method?: string;
  search?: string;
}

/**
 * Charges of a purpose in some states (unpaid ones: still open, or ended by their deadline), newest
 * first, one page, with the buyer's account e-mail and name and how many there are in all.
 */
export async function listChargesForStaff(db: Conn, f: StaffChargeFilter, limit: number, offset: number) {
  const conds = [eq(charges.purpose, f.purpose), inArray(charges.status, [...f.statuses])];
  if (f.from) conds.push(gte(charges.createdAt, f.from));
  if (f.to) conds.push(lt(charges.createdAt, f.to));
  if (f.method) conds.push(eq(charges.method, f.method as ChargeRow['method']));
  const q = f.search?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(
      or(
        ilike(users.email, like),
        ilike(users.fullName, like),
        sql`${charges.draft}->'buyer'->>'name' ilike ${like}`,
        sql`${charges.draft}->'buyer'->>'email' ilike ${like}`,
        eq(charges.txid, q),
      )!,
    );
  }
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    db
      .select({ charge: charges, email: users.email, name: users.fullName })
      .from(charges)
      .leftJoin(users, eq(users.id, charges.userId))
      .where(where)
      .orderBy(desc(charges.createdAt), desc(charges.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(charges)
      .leftJoin(users, eq(users.id, charges.userId))
      .where(where),
  ]);
  return { rows, count: total?.n ?? 0 };
}
