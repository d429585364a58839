import type { Tx } from '../../db/client.ts';
import type { PlacesWanted, Waitlist } from './registration-waitlist.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';
import type { TeamQuotas } from './team-quotas.ts';

/**
 * The hold step and its undo, side by side: a participant's places and kit shirt held for a charge,
 * and everything the charge holds given back.
 */
export function createHold(
  deps: RegistrationsServiceDeps,
  waitlist?: Pick<Waitlist, 'guardTake' | 'released'>,
  quotas?: Pick<TeamQuotas, 'take'>,
) {
  /**
   * Holds places for the charge (409 when one is gone), for a new registration and a change of
   * distance alike: freed places belong to the waitlist first; an offer's holder takes the place held
   * for them.
   */
  async function holdPlaces(tx: Tx, chargeId: number, d: PlacesWanted): Promise<void> {
    const rules = new Map(
      d.items.flatMap((i) => (i.priceRuleId ? [[i.categoryId, i.priceRuleId] as const] : [])),
    );
    // A team's quota is counted under its lock first (the order a staff edit of it locks in too).
    const fromQuota = new Map(
      d.items.flatMap((i) => (i.teamQuotaId ? [[i.categoryId, i.teamQuotaId] as const] : [])),
    );
    if (fromQuota.size > 0 && !quotas) throw new Error('team quotas not wired to the hold step');
    for (const [categoryId, quotaId] of [...fromQuota].sort((a, b) => a[1] - b[1]))
      await quotas?.take(tx, quotaId, categoryId);
    await deps.events.reservePlaces(
      tx,
      chargeId,
      d.items.map((i) => i.categoryId),
      rules,
      fromQuota,
    );
    await waitlist?.guardTake(tx, chargeId, d);
  }

  /** Holds the participant's places and kit shirt for the charge (409 when one is gone). */
  async function holdParticipant(tx: Tx, chargeId: number, d: RegistrationDraft): Promise<void> {
    await holdPlaces(tx, chargeId, d);
    if (d.kitSizeId !== undefined) await deps.events.reserveKit(tx, chargeId, d.kitSizeId);
  }

  /** Gives back every place and shirt the charge still holds. */
  async function release(tx: Tx, chargeId: number): Promise<void> {
    await deps.events.releasePlaces(tx, chargeId);
    await waitlist?.released(tx, chargeId);
  }

  return { holdPlaces, holdParticipant, release };
}

export type Hold = ReturnType<typeof createHold>;
