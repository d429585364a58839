import { delegationRefusal } from '@passada/core/after-sale';
import type { PickupDelegateStatus } from '@passada/core/contracts/after-sale';
import { maskCpfButCheckDigits } from '@passada/core/documents';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations } from '../../db/schema/index.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import type { Holder } from './holder.ts';
import { pickupRules } from './pickup-rules.ts';
import { holderRegistration } from './registration-transfer.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

type Conn = Db | Tx;

/** The runner's side: see, authorise and revoke, as the buying account or through the participant's link. */
export function createPickupDelegation(deps: Pick<RegistrationsServiceDeps, 'db' | 'now'>) {
  async function status(holder: Holder, id: number, db: Conn = deps.db): Promise<PickupDelegateStatus> {
    const row = await holderRegistration(db, holder, id);
    const rules = await pickupRules(db, row.eventId);
    const motivo = row.cancelledAt ? 'Inscrição cancelada.' : delegationRefusal(rules, row.seniorDiscount);
    return {
      permitido: motivo === null,
      motivo,
      autorizado:
        row.pickupDelegateName && row.pickupDelegateCpf
          ? { nome: row.pickupDelegateName, cpf: maskCpfButCheckDigits(row.pickupDelegateCpf) }
          : null,
      equipe:
        row.teamId && row.team ? { nome: row.team, autorizada: row.teamPickupConsentAt !== null } : null,
    };
  }

  /**
   * The runner lets their team's collector take the kit with the team's (decision 0067, later), or takes
   * it back, while the kit is at the desk; letting it needs a team and the event's rules to allow someone
   * else collecting.
   */
  async function teamConsent(holder: Holder, id: number, allowed: boolean) {
    return deps.db.transaction(async (tx) => {
      const row = await holderRegistration(tx, holder, id, 'lock');
      if (!row.teamId) throw conflict('Esta inscrição não está em uma equipe.', 'sem_equipe');
      const now = await status(holder, id, tx);
      if (allowed && !now.permitido) throw conflict(now.motivo!, 'retirada_terceiro_recusada');
      await kitPickedUp(tx, [id], 'não há mais o que autorizar');
      await tx
        .update(registrations)
        .set({ teamPickupConsentAt: allowed ? (row.teamPickupConsentAt ?? deps.now()) : null })
        .where(eq(registrations.id, id));
      return status(holder, id, tx);
    });
  }

  /** Authorises one person (replacing an earlier one) while the kit is still at the desk. */
  async function authorise(holder: Holder, id: number, person: { nome_completo: string; cpf: string }) {
    return deps.db.transaction(async (tx) => {
      const row = await holderRegistration(tx, holder, id, 'lock');
      const now = await status(holder, id, tx);
      if (!now.permitido) throw conflict(now.motivo!, 'retirada_terceiro_recusada');
      if (person.cpf === row.cpf)
        throw badRequest(
          'Autorize outra pessoa: o titular retira o kit sem autorização.',
          'validation_error',
          {
            cpf: 'Este é o CPF do titular da inscrição.',
          },
        );
      await kitPickedUp(tx, [id], 'não há mais o que autorizar');
      await tx
        .update(registrations)
        .set({ pickupDelegateName: person.nome_completo, pickupDelegateCpf: person.cpf })
        .where(eq(registrations.id, id));
      return status(holder, id, tx);
    });
  }

  /** Revokes the authorisation: from now on only the runner collects the kit. */
  async function revoke(holder: Holder, id: number) {
    return deps.db.transaction(async (tx) => {
      await holderRegistration(tx, holder, id, 'lock');
      await tx
        .update(registrations)
        .set({ pickupDelegateName: null, pickupDelegateCpf: null })
        .where(eq(registrations.id, id));
      return status(holder, id, tx);
    });
  }

  return { status, authorise, revoke, teamConsent };
}

export type PickupDelegation = ReturnType<typeof createPickupDelegation>;
