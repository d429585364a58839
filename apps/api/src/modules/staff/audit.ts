import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { unauthorized } from '../../plugins/errors.ts';
import { deleteAuditBefore, insertAudit, type StaffRow } from './staff.repository.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** When, if not the database's now: a job on the shop's clock (a test's clock included). */
  at?: Date;
}

/** The signed-in staff member of a guarded route (the guard, `guard.ts`, has already refused everyone else). */
export function actor(request: FastifyRequest): StaffRow {
  if (!request.staff) throw unauthorized('Entre no painel para continuar.');
  return request.staff;
}

/**
 * Who an audit line names: a staff member, or for sign-in attempts and start-up changes an e-mail
 * with no account behind it (the e-mail tried, or "sistema").
 */
export type AuditActor = Pick<StaffRow, 'email'> & { id: number | null };

/** The actor of what the server does by itself at start (ADMIN_EMAIL, demo accounts). */
export const SYSTEM_ACTOR: AuditActor = { id: null, email: 'sistema' };

/**
 * Writes one audit line in the caller's transaction, so a change and its record commit together.
 * Password hashes, TOTP secrets and recovery codes never reach it: callers pass wire shapes, not rows.
 */
export async function audit(db: Db | Tx, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await insertAudit(db, {
    staffId: actor.id,
    staffEmail: actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ...(entry.at ? { at: entry.at } : {}),
  });
}

/**
 * Deletes the audit lines older than `before` (the sales records' legal period, decision 0050), in the
 * caller's transaction: the audit log is staff's, and only staff deletes from it. Answers how many went.
 */
export async function pruneAuditBefore(tx: Tx, before: Date): Promise<number> {
  return deleteAuditBefore(tx, before);
}

/** The audit line of a change: fixed, or read from what the change answered; null writes none. */
export type AuditOf<T> = AuditEntry | ((result: T) => AuditEntry | null);

/**
 * The one way a back-office route changes something (docs/decisions/0030-back-office-in-two.md): runs
 * `change` in a transaction and writes the signed-in staff member's audit line in the same one, so a
 * change and its record commit together or not at all. `change` is the route's one call to a module's
 * staff service; `entry` may read its answer (the id created, before and after).
 */
export function audited<T>(
  request: FastifyRequest,
  change: (tx: Tx) => Promise<T>,
  entry: AuditOf<T>,
): Promise<T> {
  const who = actor(request);
  return request.server.db.transaction(async (tx) => {
    const result = await change(tx);
    const line = typeof entry === 'function' ? entry(result) : entry;
    if (line) await audit(tx, who, line);
    return result;
  });
}

/**
 * Audit lines for what already happened outside the database (a label bought from the carrier): the
 * lines in one transaction of their own, so a back-office route never opens one (decision 0030).
 */
export async function auditedAfter(request: FastifyRequest, entries: AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  const who = actor(request);
  await request.server.db.transaction(async (tx) => {
    for (const entry of entries) await audit(tx, who, entry);
  });
}

/** The audit line of something created ("criado"): the whole of it, under its id. */
export const creation =
  (entity: string) =>
  <T extends { id: number }>(row: T): AuditEntry => ({
    action: 'criado',
    entity,
    entityId: row.id,
    after: row,
  });
