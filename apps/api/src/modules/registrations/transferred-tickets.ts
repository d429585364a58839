import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations, registrationTransfers } from '../../db/schema/index.ts';

/**
 * Which of these registrations were handed to another runner (a completed transfer, docs/decisions/0041):
 * their nonce was drawn again then, so a ticket signed right whose nonce is no longer the registration's
 * is the old holder's code, replaced, not a forgery (docs/decisions/0063).
 */
export async function transferredRegistrations(db: Db | Tx, registrationIds: number[]): Promise<Set<number>> {
  if (!registrationIds.length) return new Set();
  const rows = await db
    .selectDistinct({ id: registrationTransfers.registrationId })
    .from(registrationTransfers)
    .where(
      and(
        inArray(registrationTransfers.registrationId, registrationIds),
        eq(registrationTransfers.status, 'concluida'),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The event's registrations handed to another runner, for the desk's snapshot. */
export async function transferredOfEvent(db: Db | Tx, eventId: number): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ id: registrationTransfers.registrationId })
    .from(registrationTransfers)
    .innerJoin(registrations, eq(registrations.id, registrationTransfers.registrationId))
    .where(and(eq(registrations.eventId, eventId), eq(registrationTransfers.status, 'concluida')));
  return new Set(rows.map((r) => r.id));
}
