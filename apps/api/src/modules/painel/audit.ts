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
 * Writes one audit line in the caller's transaction, so a change and its record commit together.
 * Password hashes and TOTP secrets never reach it: callers pass wire shapes, not rows.
 */
export async function audit(db: Db | Tx, actor: StaffRow, entry: AuditEntry): Promise<void> {
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
