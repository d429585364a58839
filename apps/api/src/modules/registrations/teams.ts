import { randomInt } from 'node:crypto';
import type { MyTeam, PainelTeam, TeamPlacesBatch, TeamPublic } from '@passada/core/contracts/teams';
import { TEAM_CODE_ALPHABET, TEAM_CODE_LENGTH } from '@passada/core/contracts/teams';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import * as repo from './teams.repository.ts';

export interface TeamsDeps {
  db: Db;
  now: () => Date;
  /** How many teams one account may captain (TEAMS_PER_ACCOUNT_MAX). */
  perAccountMax: number;
  /** The places these teams' captains bought (team-places.ts, docs/decisions/0073). */
  placesOf: (
    teamIds: number[],
    opts: { eventId?: number; withLink: boolean },
  ) => Promise<Array<TeamPlacesBatch & { teamId: number; link?: string }>>;
  /** The people the captain invited from a list (team-invites.ts, docs/decisions/0075). */
  invitesOf: (teamIds: number[]) => Promise<Array<MyTeam['convites'][number] & { teamId: number }>>;
  /** The places reserved for these teams at openings, still valid (team-quotas.ts, docs/decisions/0076). */
  quotasOf: (teamIds: number[]) => Promise<Array<MyTeam['cotas'][number] & { teamId: number }>>;
}

/** A team a registration joined: its id and the name copied to the registration's `equipe`. */
export interface JoinedTeam {
  id: number;
  name: string;
}

const CODE_FIELD = 'equipe_codigo';

/** Where the team's invite opens: the event's registration with the code, or the events for a season's team. */
export const invitePath = (team: { eventId: number | null; joinCode: string }) =>
  team.eventId === null
    ? `/eventos?equipe=${team.joinCode}`
    : `/eventos/register/${team.eventId}?equipe=${team.joinCode}`;

/** A join code drawn from the alphabet with no look-alikes (31^8, about 8.5 × 10^11 codes). */
function drawCode(): string {
  let code = '';
  for (let i = 0; i < TEAM_CODE_LENGTH; i++) code += TEAM_CODE_ALPHABET[randomInt(TEAM_CODE_ALPHABET.length)];
  return code;
}

/**
 * Teams (docs/decisions/0067-teams.md): a captain makes one and shares its code or invite link; runners
 * join when they register (the prepare step's `joinTeam`, so the direct registration, the cart and a
 * transfer's new runner all pass it); the captain sees names and distances, staff see the rest.
 */
export function createTeams(deps: TeamsDeps) {
  function publicOf(team: repo.TeamRow, eventName: string | null | undefined): TeamPublic {
    return {
      nome: team.name,
      codigo: team.joinCode,
      evento: team.eventId !== null && eventName ? { id: team.eventId, nome: eventName } : null,
      aberta: team.closedAt === null,
    };
  }

  async function create(user: AuthUser, input: { nome: string; evento: number | null }): Promise<MyTeam> {
    return deps.db.transaction(async (tx) => {
      // One captain's teams are counted under their own lock, so a burst cannot pass the cap.
      await repo.lockCaptain(tx, user.id);
      if ((await repo.countOfCaptain(tx, user.id)) >= deps.perAccountMax)
        throw conflict(
          `Você já é capitão de ${deps.perAccountMax} equipes, o máximo por conta.`,
          'limite_equipes',
        );
      const eventName = input.evento === null ? null : await repo.eventName(tx, input.evento);
      if (input.evento !== null && !eventName)
        throw badRequest('Evento não encontrado.', 'validation_error', { evento: 'Evento não encontrado.' });
      for (;;) {
        const team = await repo.insertTeam(tx, {
          eventId: input.evento,
          name: input.nome,
          captainUserId: user.id,
          joinCode: drawCode(),
        });
        if (team) return { ...myTeamOf(team, eventName), membros: [], vagas: [], cotas: [], convites: [] };
      }
    });
  }

  function myTeamOf(
    team: repo.TeamRow,
    eventName: string | null | undefined,
  ): Omit<MyTeam, 'membros' | 'vagas' | 'cotas' | 'convites'> {
    return {
      ...publicOf(team, eventName),
      id: team.id,
      convite: invitePath(team),
      criada_em: team.createdAt.toISOString(),
    };
  }

  /** The captain's teams (or the one with this id) with their standing members (name, event and distances only). */
  async function mine(user: AuthUser, id?: number): Promise<MyTeam[]> {
    const rows = await repo.teamsOfCaptain(deps.db, user.id, id);
    const ids = rows.map((r) => r.team.id);
    const members = await repo.membersOf(deps.db, ids);
    const places = await deps.placesOf(ids, { withLink: true });
    const invites = await deps.invitesOf(ids);
    const quotas = await deps.quotasOf(ids);
    return rows.map(({ team, eventName }) => ({
      ...myTeamOf(team, eventName),
      membros: members
        .filter((m) => m.teamId === team.id)
        .map((m) => ({
          nome: m.name,
          evento: m.eventName,
          categorias: m.categories,
          inscrito_em: m.createdAt.toISOString(),
        })),
      vagas: places
        .filter((p) => p.teamId === team.id)
        .map(({ teamId: _, link, ...p }) => ({ ...p, link: link ?? '' })),
      cotas: quotas.filter((q) => q.teamId === team.id).map(({ teamId: _, ...q }) => q),
      convites: invites.filter((i) => i.teamId === team.id).map(({ teamId: _, ...i }) => i),
    }));
  }

  /** The captain opens or closes joining (members already in stay). */
  async function setOpen(user: AuthUser, id: number, open: boolean): Promise<MyTeam> {
    await deps.db.transaction(async (tx) => {
      const team = await repo.lockCaptainTeam(tx, user.id, id);
      if (!team) throw notFound('Equipe não encontrada.');
      await repo.setClosed(tx, id, open ? null : (team.closedAt ?? deps.now()));
    });
    const [team] = await mine(user, id);
    if (!team) throw notFound('Equipe não encontrada.');
    return team;
  }

  /** What the registration form shows for a code: the team's name and event, or 404. */
  async function byCode(code: string): Promise<TeamPublic> {
    const team = await repo.teamByCode(deps.db, code);
    if (!team) throw notFound('Nenhuma equipe com este código.');
    const name = team.eventId === null ? null : await repo.eventName(deps.db, team.eventId);
    return publicOf(team, name);
  }

  /**
   * The prepare step's check of a join code: an open team of this event (or of every event). Refused
   * with the field named, so the form shows it under the code. Read in the registration's transaction:
   * a team the captain closes after the charge was made still takes the runner who already paid.
   */
  async function joinTeam(tx: Tx, eventId: number, code: string | undefined): Promise<JoinedTeam | null> {
    if (code === undefined) return null;
    const team = await repo.teamByCode(tx, code);
    if (!team)
      throw badRequest('Código de equipe não encontrado.', 'equipe_invalida', {
        [CODE_FIELD]: 'Código de equipe não encontrado.',
      });
    if (team.eventId !== null && team.eventId !== eventId)
      throw badRequest('Este código é de uma equipe de outro evento.', 'equipe_invalida', {
        [CODE_FIELD]: 'Este código é de uma equipe de outro evento.',
      });
    if (team.closedAt) throw conflict('Esta equipe não aceita novos membros.', 'equipe_fechada');
    return { id: team.id, name: team.name };
  }

  /** The back office's list of an event's teams with the captain and the members of that event. */
  async function ofEvent(eventId: number): Promise<PainelTeam[]> {
    const rows = await repo.teamsOfEvent(deps.db, eventId);
    const ids = rows.map((r) => r.team.id);
    const members = await repo.membersOf(deps.db, ids, eventId);
    const places = await deps.placesOf(ids, { eventId, withLink: false });
    return rows.map(({ team, captainName, captainEmail }) => ({
      id: team.id,
      nome: team.name,
      codigo: team.joinCode,
      evento_id: team.eventId,
      aberta: team.closedAt === null,
      capitao: captainName && captainEmail ? { nome: captainName, email: captainEmail } : null,
      criada_em: team.createdAt.toISOString(),
      membros: members
        .filter((m) => m.teamId === team.id)
        .map((m) => ({
          inscricao: m.registrationId,
          nome: m.name,
          categorias: m.categories,
          pago_centavos: m.totalCents,
          kit_retirado: m.pickedUp,
          vaga_da_equipe: m.teamBatchId !== null,
        })),
      vagas: places.filter((p) => p.teamId === team.id).map(({ teamId: _, link: __, ...p }) => p),
    }));
  }

  return { create, mine, setOpen, byCode, joinTeam, ofEvent };
}

export type Teams = ReturnType<typeof createTeams>;
