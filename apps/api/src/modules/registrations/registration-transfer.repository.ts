import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrationCategories, registrations, registrationTransfers } from '../../db/schema/index.ts';
import type { RegistrationRow } from './registrations.repository.ts';

type Conn = Db | Tx;

export type TransferRow = typeof registrationTransfers.$inferSelect;
export type NewTransfer = typeof registrationTransfers.$inferInsert;

export async function insertTransfer(tx: Tx, values: NewTransfer): Promise<TransferRow> {
  const [row] = await tx.insert(registrationTransfers).values(values).returning();
  if (!row) throw new Error('transferência não registrada');
  return row;
}

export async function findByTokenHash(db: Conn, tokenHash: string): Promise<TransferRow | null> {
  const [row] = await db
    .select()
    .from(registrationTransfers)
    .where(eq(registrationTransfers.tokenHash, tokenHash));
  return row ?? null;
}

export async function findById(db: Conn, id: number): Promise<TransferRow | null> {
  const [row] = await db.select().from(registrationTransfers).where(eq(registrationTransfers.id, id));
  return row ?? null;
}

export async function lockTransfer(tx: Tx, id: number): Promise<TransferRow | null> {
  const [row] = await tx
    .select()
    .from(registrationTransfers)
    .where(eq(registrationTransfers.id, id))
    .for('update');
  return row ?? null;
}

/**
 * Transfer invitations sent since `since` to an address other than `except` (the account's own,
 * proved e-mail): of one registration, or of every registration one account holds.
 */
export async function countInvitesSince(
  db: Conn,
  who: { registrationId: number } | { accountUserId: number },
  since: Date,
  except: string | null,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(registrationTransfers)
    .innerJoin(registrations, eq(registrations.id, registrationTransfers.registrationId))
    .where(
      and(
        'registrationId' in who
          ? eq(registrationTransfers.registrationId, who.registrationId)
          : eq(registrations.accountUserId, who.accountUserId),
        sql`${registrationTransfers.createdAt} > ${since.toISOString()}`,
        except === null ? undefined : sql`lower(${registrationTransfers.toEmail}) <> lower(${except})`,
      ),
    );
  return row?.n ?? 0;
}

/** The registration's shirt size, chosen by the new runner of a transfer. */
export async function setKitSize(tx: Tx, registrationId: number, kitSize: string | null): Promise<void> {
  await tx.update(registrations).set({ kitSize }).where(eq(registrations.id, registrationId));
}

/** The registration's pending transfer (at most one, by a partial unique index). */
export async function pendingOf(db: Conn, registrationId: number): Promise<TransferRow | null> {
  const [row] = await db
    .select()
    .from(registrationTransfers)
    .where(
      and(
        eq(registrationTransfers.registrationId, registrationId),
        eq(registrationTransfers.status, 'pendente'),
      ),
    );
  return row ?? null;
}

/** The transfer a charge paid (the registration purpose's fulfilledBy). */
export async function findByCharge(db: Conn, chargeId: number): Promise<TransferRow | null> {
  const [row] = await db
    .select()
    .from(registrationTransfers)
    .where(and(eq(registrationTransfers.chargeId, chargeId), eq(registrationTransfers.status, 'concluida')));
  return row ?? null;
}

/** Ends a transfer still pending; answers whether it was. */
export async function endTransfer(
  tx: Tx,
  id: number,
  status: 'concluida' | 'cancelada' | 'expirada',
  at: Date,
  chargeId?: number,
): Promise<boolean> {
  const rows = await tx
    .update(registrationTransfers)
    .set({ status, endedAt: at, ...(chargeId !== undefined ? { chargeId } : {}) })
    .where(and(eq(registrationTransfers.id, id), eq(registrationTransfers.status, 'pendente')))
    .returning({ id: registrationTransfers.id });
  return rows.length > 0;
}

/** Marks the registration's pending transfers whose time ran out as expired. */
export async function expireDue(tx: Tx, registrationId: number, now: Date): Promise<void> {
  await tx
    .update(registrationTransfers)
    .set({ status: 'expirada', endedAt: now })
    .where(
      and(
        eq(registrationTransfers.registrationId, registrationId),
        eq(registrationTransfers.status, 'pendente'),
        lt(registrationTransfers.expiresAt, now),
      ),
    );
}

/** The charge paying for the transfer, recorded when it is created (the newest one wins). */
export async function setCharge(tx: Tx, id: number, chargeId: number | null): Promise<void> {
  await tx.update(registrationTransfers).set({ chargeId }).where(eq(registrationTransfers.id, id));
}

export type NewHolder = Pick<
  RegistrationRow,
  | 'fullName'
  | 'cpf'
  | 'birthDate'
  | 'gender'
  | 'address'
  | 'phone'
  | 'email'
  | 'street'
  | 'zipCode'
  | 'state'
  | 'city'
  | 'neighborhood'
  | 'team'
  | 'emergencyName'
  | 'emergencyPhone'
  | 'pcd'
  | 'termsVersion'
  | 'termsAcceptedAt'
  | 'pcdConsentVersion'
  | 'pcdConsentAt'
  | 'whatsappConsentVersion'
  | 'whatsappConsentAt'
  | 'seniorDiscount'
  | 'accountUserId'
>;

/**
 * The registration becomes the new runner's: their data, their CPF on its categories (the unique
 * (category, cpf) index is the final guard), and new nonces, so the old QR code and every link sent
 * to the old holder stop working.
 */
export async function changeHolder(
  tx: Tx,
  registrationId: number,
  holder: NewHolder,
): Promise<RegistrationRow> {
  const fresh = sql`replace(gen_random_uuid()::text, '-', '')`;
  const [row] = await tx
    .update(registrations)
    .set({ ...holder, checkinNonce: fresh, participantLinkNonce: fresh })
    .where(eq(registrations.id, registrationId))
    .returning();
  if (!row) throw new Error('inscrição não encontrada');
  await tx
    .update(registrationCategories)
    .set({ cpf: holder.cpf })
    .where(eq(registrationCategories.registrationId, registrationId));
  return row;
}
