import { delegationRefusal } from '@passada/core/after-sale';
import type { DeskTeam, DeskTeamList } from '@passada/core/contracts/teams';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import { pickupRules } from './pickup-rules.ts';
import * as repo from './registrations.repository.ts';
import * as teamsRepo from './teams.repository.ts';

interface TeamPickupDeps {
  db: Db;
  now: () => Date;
  /** The check-in's row lock (registrations-admin.ts): a cancellation and a pickup never both succeed. */
  lockForCheckin(tx: Tx, id: number): Promise<{ cancelledAt: Date | null } | null>;
}

/**
 * The team's kits in one go at the desk (docs/decisions/0067, later): the team's collector (the captain
 * or whom they send, named by staff after checking a document) takes the kits of the members who let
 * the team collect theirs when they registered, within the event's rules for someone else collecting
 * (none when the organiser forbids it; a 60+ half-price kit stays for its runner when the rules say).
 */
export function createTeamPickup(deps: TeamPickupDeps) {
  type Rules = Awaited<ReturnType<typeof pickupRules>>;
  type Row = Awaited<ReturnType<typeof teamsRepo.pickupRowsOf>>[number];

  function memberOf(rules: Rules, r: Row): DeskTeam['membros'][number] {
    const refusal = delegationRefusal(rules, r.seniorDiscount);
    return {
      inscricao: r.id,
      nome: r.name,
      categorias: r.categories,
      situacao: r.checkinAt ? 'retirado' : !r.consentAt ? 'sem_autorizacao' : refusal ? 'recusado' : 'pronto',
      motivo: r.checkinAt || !r.consentAt ? null : refusal,
      retirada: r.checkinAt
        ? { em: r.checkinAt.toISOString(), por: r.checkinStaff ?? '', retirado_por_nome: r.collectorName }
        : null,
    };
  }

  async function view(db: Db | Tx, teamId: number, eventId: number): Promise<DeskTeam> {
    const found = await teamsRepo.teamWithCaptain(db, teamId);
    if (!found || (found.team.eventId !== null && found.team.eventId !== eventId))
      throw notFound('Equipe não encontrada neste evento.');
    const { team, captainName } = found;
    const rules = await pickupRules(db, eventId);
    const rows = await teamsRepo.pickupRowsOf(db, [teamId], eventId);
    return {
      id: team.id,
      nome: team.name,
      codigo: team.joinCode,
      capitao: captainName,
      item: rules.item,
      membros: rows.map((r) => memberOf(rules, r)),
    };
  }

  /**
   * The event's teams with how many members and how many kits are ready to go with the team: the rules
   * and every team's members read once, whatever the number of teams.
   */
  async function list(eventId: number): Promise<DeskTeamList> {
    const teams = await teamsRepo.teamsOfEvent(deps.db, eventId);
    const rules = await pickupRules(deps.db, eventId);
    const rows = await teamsRepo.pickupRowsOf(
      deps.db,
      teams.map((t) => t.team.id),
      eventId,
    );
    return teams.map(({ team }) => {
      const members = rows.filter((r) => r.teamId === team.id).map((r) => memberOf(rules, r));
      return {
        id: team.id,
        nome: team.name,
        codigo: team.joinCode,
        membros: members.length,
        prontos: members.filter((m) => m.situacao === 'pronto').length,
      };
    });
  }

  /**
   * Hands every ready kit to the collector, each under its registration's row lock (a cancellation,
   * another desk's pickup, a consent taken back or a transfer committed meanwhile is seen, and that kit
   * is left out). The item, where the
   * event requires it, comes with each kit. Answers how many went out and the team as it stands now.
   */
  async function handOut(
    tx: Tx,
    teamId: number,
    eventId: number,
    by: { id: number; name: string },
    input: { collectorName: string; itemQuantity: number | null },
  ): Promise<{ entregues: number; equipe: DeskTeam }> {
    const before = await view(tx, teamId, eventId);
    const ready = before.membros.filter((m) => m.situacao === 'pronto');
    if (ready.length === 0)
      throw conflict('Nenhum kit desta equipe está pronto para sair com ela.', 'nada_a_entregar');
    const quantity = input.itemQuantity && input.itemQuantity > 0 ? input.itemQuantity : null;
    if (before.item?.exigido && quantity === null)
      throw conflict(`O organizador exige o item na retirada: ${before.item.texto}.`, 'item_obrigatorio');
    let handed = 0;
    for (const member of ready) {
      const locked = await deps.lockForCheckin(tx, member.inscricao);
      if (!locked || locked.cancelledAt) continue;
      // What the list read may have changed before the lock: the runner took the consent back, or the
      // place was transferred to someone outside the team.
      const now = await teamsRepo.teamPickupStateOf(tx, member.inscricao);
      if (now?.teamId !== teamId || !now.consentAt) continue;
      const inserted = await repo.insertCheckin(tx, {
        registrationId: member.inscricao,
        staffId: by.id,
        staffName: by.name,
        at: deps.now(),
        collectedBy: 'equipe',
        collectorName: input.collectorName,
        itemQuantity: before.item ? quantity : null,
      });
      if (inserted) handed++;
    }
    return { entregues: handed, equipe: await view(tx, teamId, eventId) };
  }

  return { list, view: (teamId: number, eventId: number) => view(deps.db, teamId, eventId), handOut };
}
