import type { Db, Tx } from '../../db/client.ts';
import { insertAudit, type StaffRow } from './painel.repository.ts';

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

/** Creates something in one transaction with its "criado" audit line; answers what was created. */
export function createAudited<T extends { id: number }>(
  db: Db,
  who: StaffRow,
  entity: string,
  create: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const created = await create(tx);
    await audit(tx, who, { action: 'criado', entity, entityId: created.id, after: created });
    return created;
  });
}
