import { teamPriceCents, teamTierPercent } from '@passada/core/after-sale';
import type { Db, Tx } from '../../db/client.ts';
import { HttpError } from '../../plugins/errors.ts';
import type { RefundRow } from '../payments/payments.service.ts';
import { findRules } from './after-sale.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import * as repo from './team-tiers.repository.ts';

/**
 * Team prices (docs/decisions/0074): an event's tiers (after-sale rules, `teamTiers`) give a member who
 * joins a team with its code a discount on the lot by how many standing members the team has in the
 * event, this one counted; when a confirmed member takes the team to a better tier, every earlier member
 * priced by the tiers gets the difference back on their own charge, once per tier.
 */
export function createTeamTiers(deps: Pick<RegistrationsServiceDeps, 'db' | 'payments' | 'log'>) {
  /** The discount a new member of `teamId` gets now (`alsoJoining` more in the same payment): 0 without tiers. */
  async function percentFor(db: Db | Tx, eventId: number, teamId: number, alsoJoining = 0): Promise<number> {
    const { rules } = await findRules(db, eventId);
    if (rules.teamTiers.length === 0) return 0;
    const members = (await repo.standingMembers(db, teamId, eventId)) + alsoJoining + 1;
    return teamTierPercent(rules.teamTiers, members);
  }

  /**
   * After a member of the team was confirmed (a job, after the commit): the team's tier now, and each
   * standing member priced below it refunded down to the tier's price. Idempotent (one refund id per
   * registration and tier; a member at the tier is skipped). Answers how many were refunded.
   */
  async function rebate(teamId: number, eventId: number): Promise<number> {
    const refunds = await deps.db.transaction(async (tx) => {
      await repo.lockTeam(tx, teamId);
      const { rules } = await findRules(tx, eventId);
      const members = await repo.standingMembers(tx, teamId, eventId);
      const percent = teamTierPercent(rules.teamTiers, members);
      const out: RefundRow[] = [];
      if (percent === 0) return out;
      for (const m of await repo.membersBelow(tx, teamId, eventId, percent)) {
        if (m.baseCents === null) continue;
        const target = teamPriceCents(m.baseCents, percent);
        const back = m.totalCents - target;
        if (back > 0) {
          const refund = await deps.payments
            .refundPart(tx, m.chargeId, {
              refundId: `eqfaixa${m.id}p${percent}`,
              amountCents: back,
              reason: `Sua equipe chegou a ${members} inscritos: o preço de equipe agora tem ${percent}% de desconto.`,
            })
            .catch((err: unknown) => {
              // Less left on the charge than the difference (part of it went back already): staff decide.
              if (err instanceof HttpError && err.statusCode === 409) {
                deps.log.warn({ registrationId: m.id, percent }, 'team tier rebate above what is left');
                return undefined;
              }
              throw err;
            });
          if (refund === undefined) continue;
          if (refund) out.push(refund);
        }
        await repo.setTier(tx, m.id, percent, Math.min(m.totalCents, target));
      }
      return out;
    });
    for (const refund of refunds) await deps.payments.sendRefund(refund);
    return refunds.length;
  }

  return { percentFor, rebate };
}

export type TeamTiers = ReturnType<typeof createTeamTiers>;
