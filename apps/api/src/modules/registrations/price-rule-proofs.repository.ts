import { and, asc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { events, priceRuleProofs, registrations } from '../../db/schema/index.ts';

type Conn = Db | Tx;
export type ProofRow = typeof priceRuleProofs.$inferSelect;
export type NewProof = typeof priceRuleProofs.$inferInsert;

export async function insertProof(db: Conn, row: NewProof): Promise<void> {
  await db.insert(priceRuleProofs).values(row);
}

export async function proofByToken(db: Conn, token: string): Promise<ProofRow | undefined> {
  const [row] = await db.select().from(priceRuleProofs).where(eq(priceRuleProofs.token, token));
  return row;
}

export async function proofById(db: Conn, id: number, lock = false): Promise<ProofRow | undefined> {
  const query = db.select().from(priceRuleProofs).where(eq(priceRuleProofs.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The proof sent with `token` taken by a registration, unless another took it first. */
export async function takeProof(
  tx: Tx,
  token: string,
  values: Pick<NewProof, 'registrationId' | 'ruleId' | 'status' | 'dueAt' | 'consentVersion' | 'consentAt'>,
): Promise<boolean> {
  const taken = await tx
    .update(priceRuleProofs)
    .set(values)
    .where(and(eq(priceRuleProofs.token, token), isNull(priceRuleProofs.registrationId)))
    .returning({ id: priceRuleProofs.id });
  return taken.length > 0;
}

export async function setDecision(
  tx: Tx,
  id: number,
  values: Pick<NewProof, 'status' | 'reason' | 'reviewedAt' | 'reviewedBy'>,
): Promise<void> {
  await tx.update(priceRuleProofs).set(values).where(eq(priceRuleProofs.id, id));
}

/** Proofs with their registration and event, by deadline (at most 500 a page of the queue). */
export async function reviewRows(db: Conn, where: Array<SQL | undefined>) {
  return db
    .select({ proof: priceRuleProofs, registration: registrations, eventName: events.name })
    .from(priceRuleProofs)
    .innerJoin(registrations, eq(registrations.id, priceRuleProofs.registrationId))
    .innerJoin(events, eq(events.id, registrations.eventId))
    .where(and(...where))
    .orderBy(asc(priceRuleProofs.dueAt), asc(priceRuleProofs.id))
    .limit(500);
}

export const proofColumns = {
  id: priceRuleProofs.id,
  status: priceRuleProofs.status,
  eventId: registrations.eventId,
};

/** Each registration's proof status and refusal reason. */
export async function statusOf(db: Conn, registrationIds: number[]) {
  if (registrationIds.length === 0) return [];
  return db
    .select({
      id: priceRuleProofs.registrationId,
      status: priceRuleProofs.status,
      reason: priceRuleProofs.reason,
    })
    .from(priceRuleProofs)
    .where(inArray(priceRuleProofs.registrationId, registrationIds));
}

/** The registration's proof unlinked and its file forgotten; answers the file's name to erase, if any. */
export async function detachProof(tx: Tx, registrationId: number): Promise<string | null> {
  const [before] = await tx
    .select({ fileName: priceRuleProofs.fileName })
    .from(priceRuleProofs)
    .where(eq(priceRuleProofs.registrationId, registrationId))
    .for('update');
  if (!before) return null;
  await tx
    .update(priceRuleProofs)
    .set({ registrationId: null, fileName: null })
    .where(eq(priceRuleProofs.registrationId, registrationId));
  return before.fileName;
}

/** The files of the proofs `where` selects forgotten, in the caller's transaction; answers their names. */
async function forgetFilesIn(tx: Tx, where: SQL): Promise<string[]> {
  const found = await tx
    .select({ id: priceRuleProofs.id, fileName: priceRuleProofs.fileName })
    .from(priceRuleProofs)
    .where(and(isNotNull(priceRuleProofs.fileName), where))
    .for('update');
  if (found.length)
    await tx
      .update(priceRuleProofs)
      .set({ fileName: null })
      .where(
        inArray(
          priceRuleProofs.id,
          found.map((f) => f.id),
        ),
      );
  return found.flatMap((f) => (f.fileName ? [f.fileName] : []));
}

/** The files of the proofs `where` selects forgotten, in one transaction; answers their names to erase. */
const forgetFiles = (db: Db, where: SQL): Promise<string[]> =>
  db.transaction((tx) => forgetFilesIn(tx, where));

/**
 * An account erased (LGPD art. 18): the files of the proofs it sent and of its registrations' proofs are
 * forgotten (the rows stay, with what staff decided); answers the names to erase after the commit.
 */
export const forgetFilesOfAccount = (tx: Tx, userId: number) =>
  forgetFilesIn(
    tx,
    sql`(${priceRuleProofs.userId} = ${userId} or ${priceRuleProofs.registrationId} in (
      select r.id from registrations r where r.account_user_id = ${userId}))`,
  );

/**
 * The proofs of registrations whose event ended before `endedBefore` (store calendar) forget their files
 * (a PCD document is health data, kept as long as the PCD answers).
 */
export const forgetFilesOfEventsEndedBefore = (db: Db, endedBefore: string) =>
  forgetFiles(
    db,
    sql`${priceRuleProofs.registrationId} in (
      select r.id from registrations r join events e on e.id = r.event_id where e.end_data_evento < ${endedBefore})`,
  );

/** Proofs sent before `before` that no registration took (the payment never came): files forgotten. */
export const forgetUnusedFilesBefore = (db: Db, before: Date) =>
  forgetFiles(db, and(isNull(priceRuleProofs.registrationId), lt(priceRuleProofs.createdAt, before))!);
