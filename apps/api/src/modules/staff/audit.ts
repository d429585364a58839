import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { actor } from './guard.ts';
import { insertAudit, type StaffRow } from './staff.repository.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
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
  });
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

/** The audit line of something created ("criado"): the whole of it, under its id. */
export const creation =
  (entity: string) =>
  <T extends { id: number }>(row: T): AuditEntry => ({
    action: 'criado',
    entity,
    entityId: row.id,
    after: row,
  });
