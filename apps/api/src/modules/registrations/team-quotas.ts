import type { PainelTeamQuota, TeamQuotaInput } from '@passada/core/contracts/teams';
import type { Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { notifyEventsChanged } from '../events/events.service.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import * as repo from './team-quotas.repository.ts';
import { teamByCode } from './teams.repository.ts';
import { countsOf, lockCategory } from './waitlist.repository.ts';

const QUOTA_GONE = 'As vagas reservadas para a sua equipe nesta distância acabaram.';

/** A quota still holds its places: its end, when set, has not come (the repository's `lasting`, in SQL). */
const lasts = (endsAt: Date | null, now: Date) => !endsAt || endsAt > now;

/**
 * Places the organiser reserves for named teams at an opening (docs/decisions/0076). A member registering
 * with the team's code, in a distance where the team's quota has a place unused, passes the waiting
 * room's turn and the lottery's draw (never the opening's limits per CPF and per buyer); the hold step
 * takes the place under the quota's row lock (`take`), so a burst of members never takes more than the
 * quota, and marks it with the quota, so a place given back (an unpaid Pix, a cancellation) returns to
 * the quota while it lasts. The public, the waitlist's offers and the lottery's draws count the quotas'
 * unused places as held (`countsOf`).
 */
export function createTeamQuotas(deps: Pick<RegistrationsServiceDeps, 'db' | 'now' | 'events'>) {
  /**
   * The team's quotas for every one of these categories, when each has a place unused (category →
   * quota); null otherwise: a registration is in the quota whole or not at all.
   */
  async function passFor(tx: Tx, teamId: number, categoryIds: readonly number[]) {
    const room = await repo.roomFor(tx, teamId, categoryIds, deps.now());
    return categoryIds.length > 0 && categoryIds.every((id) => room.has(id)) ? room : null;
  }

  /** A place of the quota, counted under its lock before the hold step takes it; 409 when none is left. */
  async function take(tx: Tx, quotaId: number, categoryId: number): Promise<void> {
    const row = await repo.lockQuota(tx, quotaId);
    const now = deps.now();
    if (
      !row ||
      row.quota.categoryId !== categoryId ||
      !lasts(row.quota.endsAt, now) ||
      row.used >= row.quota.places
    )
      throw conflict(QUOTA_GONE, 'cota_esgotada');
  }

  /** The event's quotas as the back office sees them. */
  async function forStaff(eventId: number): Promise<PainelTeamQuota[]> {
    const now = deps.now();
    return (await repo.quotasOfEvent(deps.db, eventId)).map((r) => ({
      id: r.quota.id,
      equipe: { id: r.quota.teamId, nome: r.teamName, codigo: r.teamCode },
      categoria: { id: r.quota.categoryId, nome: r.categoryName },
      vagas: r.quota.places,
      usadas: r.used,
      ate: r.quota.endsAt?.toISOString() ?? null,
      vigente: r.quota.places > 0 && lasts(r.quota.endsAt, now),
    }));
  }

  /**
   * The organiser sets a team's quota of a distance (an absolute number), or ends it. It never reserves
   * more than the public could buy now (places left less the waitlist's offers and the other quotas),
   * nor fewer than the members already used. Locks the quota, then the category, as a member's hold does.
   */
  async function save(tx: Tx, eventId: number, input: TeamQuotaInput): Promise<void> {
    const team = await teamByCode(tx, input.codigo);
    if (!team || (team.eventId !== null && team.eventId !== eventId))
      throw badRequest('Equipe não encontrada neste evento.', 'equipe_invalida', {
        codigo: 'Nenhuma equipe deste evento ou da temporada tem este código.',
      });
    const now = deps.now();
    // Ended now: the unused places are the public's from this instant.
    const endsAt = input.encerrar ? now : input.ate ? new Date(input.ate) : null;
    if (!input.encerrar && endsAt && endsAt <= now)
      throw badRequest('Informe uma data futura.', 'validation_error', { ate: 'Informe uma data futura.' });
    const existing = await repo.lockQuotaOf(tx, team.id, input.categoria);
    const category = await lockCategory(tx, input.categoria);
    if (!category || category.eventId !== eventId) throw notFound('Categoria não encontrada neste evento.');
    const used = existing?.used ?? 0;
    if (input.vagas < used)
      throw conflict(
        `Os membros da equipe já usaram ${used} ${used === 1 ? 'vaga' : 'vagas'} desta reserva: informe ${used} ou mais.`,
        'abaixo_do_usado',
      );
    // What this quota holds unused now and would hold: the difference comes from the public's places.
    const lasting = (q: { places: number; endsAt: Date | null } | undefined) =>
      q && lasts(q.endsAt, now) ? Math.max(0, q.places - used) : 0;
    const more = lasting({ places: input.vagas, endsAt }) - lasting(existing?.quota);
    const free = category.placesLeft - (await countsOf(tx, [category.id], now)).get(category.id)!.offers;
    if (more > 0 && more > free)
      throw conflict(
        free > 0
          ? `Só ${free} ${free === 1 ? 'vaga está livre' : 'vagas estão livres'} nesta distância para reservar.`
          : 'Não há vagas livres nesta distância para reservar.',
        'vagas_insuficientes',
      );
    await repo.saveQuota(tx, {
      eventId,
      categoryId: category.id,
      teamId: team.id,
      places: input.vagas,
      endsAt,
      endedAt: input.encerrar ? now : null,
      now,
    });
    await repo.dropEmpty(tx, eventId);
    // The public's places of the category changed: pages showing them are drawn again.
    await notifyEventsChanged(tx);
  }

  /**
   * Quotas whose end came: their unused places are the public's from then on (counted so already), so
   * the event's pages are drawn again and the waitlist's first in line are offered them (`nudge`).
   */
  async function sweepEnded(nudge: (tx: Tx) => Promise<void>): Promise<number> {
    return deps.db.transaction(async (tx) => {
      const ended = await repo.markEnded(tx, deps.now());
      if (ended > 0) {
        await notifyEventsChanged(tx);
        await nudge(tx);
      }
      return ended;
    });
  }

  /** The captain's view: each valid quota of these teams, with what the members used. */
  async function ofTeams(teamIds: number[]) {
    return (await repo.quotasOfTeams(deps.db, teamIds, deps.now())).map((r) => ({
      teamId: r.quota.teamId,
      evento: r.eventName,
      categoria: r.categoryName,
      vagas: r.quota.places,
      usadas: r.used,
      ate: r.quota.endsAt?.toISOString() ?? null,
    }));
  }

  return { passFor, take, forStaff, save, sweepEnded, ofTeams };
}

export type TeamQuotas = ReturnType<typeof createTeamQuotas>;
