import { type Participant, ParticipantSchema } from '@passada/core/contracts/registrations';
import {
  type TeamPlacesBatch as Batch,
  TeamClaimPaidDraftSchema,
  type TeamClaimView,
  type TeamPlacesDraft,
  TeamPlacesDraftSchema,
} from '@passada/core/contracts/teams';
import { isRegistrationOpen } from '@passada/core/events';
import { centsToReais, formatBRL } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, notFound, validationError, zodIssues } from '../../plugins/errors.ts';
import type { ChargePurposeHandler, RefundRow } from '../payments/payments.service.ts';
import type { Confirm } from './registration-confirm.ts';
import type { Hold } from './registration-hold.ts';
import type { Prepare } from './registration-prepare.ts';
import type { Pricing } from './registration-price.ts';
import type { RegistrationRow } from './registrations.repository.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';
import { newTeamLinkToken } from './team-link-token.ts';
import * as repo from './team-places.repository.ts';
import { lockCaptainTeam } from './teams.repository.ts';
import type { JoinedTeam } from './teams.ts';

/** What a captain's charge for the team's places holds until it is paid (charges.draft). */
export interface TeamPlacesChargeDraft extends TeamPlacesDraft {
  evento: number;
  equipe_nome: string;
  evento_nome: string;
  categoria_nome: string;
  precoCentavos: number;
  /** What each member pays when claiming (docs/decisions/0079); absent on older drafts: 0. */
  parteMembroCentavos?: number;
  lote: string | null;
  /** Who is told when money goes back (removed with the account's personal data). */
  capitao?: { nome: string; email: string };
}

const CLOSED = 'O prazo para usar as vagas desta equipe terminou.';
const NONE_LEFT = 'Todas as vagas compradas por esta equipe já foram usadas. Fale com o capitão.';

/** A registration charge's draft that claims a team's place, paying the member's part (0079). */
export const isTeamClaimDraft = (draft: unknown): boolean =>
  typeof draft === 'object' && draft !== null && 'vaga_equipe' in draft;

/** The claim link's path: the secret is the last segment. */
export const claimPath = (token: string) => `/equipes/vagas/${token}`;

/**
 * A team's places bought by its captain in one payment and claimed by its members (docs/decisions/0073).
 * The captain's charge holds the places; a member's claim is a registration made through the same
 * prepare step as any other (age, deadline, CPF free, termo, kit size, opening limits), paid by the team
 * (a settled charge of nothing), its place handed over from the captain's charge without going back to
 * sale. A cancelled claim gives its place back to the team while the batch is open; at the registration
 * deadline what nobody claimed is refunded or given back to sale, as the event's rules say.
 */
export function createTeamPlaces(
  deps: RegistrationsServiceDeps,
  steps: {
    pricing: Pick<Pricing, 'priceChoice'>;
    prepare: Pick<Prepare, 'prepareParticipant' | 'checkOpen'>;
    hold: Pick<Hold, 'holdPlaces' | 'release'>;
    confirm: Pick<Confirm, 'insertParticipant'>;
  },
) {
  /** The 'team_places' purpose of a charge: N places of one category, for a team, paid by its captain. */
  const purpose: ChargePurposeHandler<TeamPlacesChargeDraft> = {
    async prepare(tx, { user, draft }) {
      const parsed = TeamPlacesDraftSchema.safeParse(draft);
      if (!parsed.success) throw validationError(zodIssues(parsed.error, 'vagas_equipe'));
      const d = parsed.data;
      if (d.quantidade > deps.env.TEAM_PLACES_PER_PURCHASE_MAX)
        throw badRequest(
          `Compre no máximo ${deps.env.TEAM_PLACES_PER_PURCHASE_MAX} vagas por pagamento.`,
          'validation_error',
          { quantidade: `No máximo ${deps.env.TEAM_PLACES_PER_PURCHASE_MAX} vagas por pagamento.` },
        );
      const team = await lockCaptainTeam(tx, user.id, d.equipe);
      if (!team) throw notFound('Equipe não encontrada.');
      const [category] = await deps.events.findCategories([d.categoria], tx);
      if (!category)
        throw badRequest('Categoria não encontrada.', 'categoria_invalida', {
          categoria: 'Categoria não encontrada.',
        });
      if (team.eventId !== null && team.eventId !== category.eventId)
        throw badRequest('Esta equipe é de outro evento.', 'equipe_invalida', {
          categoria: 'Esta equipe é de outro evento.',
        });
      const { event, items } = await steps.pricing.priceChoice(
        tx,
        category.eventId,
        [category.id],
        undefined,
        tx,
      );
      steps.prepare.checkOpen(event);
      if (event.registrationsClosed) throw conflict('Inscrições encerradas', 'inscricoes_encerradas');
      // A waiting room's turn and a lottery's draw give places one runner at a time: a captain buying a
      // block would pass them by (quotas at an opening are the organiser's, not the captain's).
      if (deps.opening?.modeOf(event.id))
        throw conflict(
          'Este evento abre por fila ou sorteio: cada corredor se inscreve na sua vez.',
          'vagas_equipe_indisponiveis',
        );
      // A relay (docs/decisions/0078): the whole team of legs, at the category's price per team.
      const legs = category.relayLegs;
      if (legs && d.quantidade !== legs)
        throw badRequest(
          `${category.name} é um revezamento de ${legs} corredores: compre as ${legs} vagas juntas.`,
          'revezamento_incompleto',
          { quantidade: `Um revezamento tem ${legs} corredores.` },
        );
      if (category.placesLeft < d.quantidade)
        throw conflict(
          category.placesLeft > 0
            ? `Restam só ${category.placesLeft} vagas em ${category.name}.`
            : `Categoria esgotada: ${category.name}.`,
          'esgotado',
        );
      // A share of each place (docs/decisions/0079): the team pays it, each member the rest at the claim.
      const percent = d.percentual ?? 100;
      if (legs && percent < 100)
        throw badRequest('Num revezamento a equipe paga o revezamento inteiro.', 'revezamento_parte', {
          percentual: 'Num revezamento a equipe paga 100%.',
        });
      const item = items[0]!;
      const captain = await deps.users.findContact(user.id, tx);
      const shareCents = Math.round((item.priceCents * percent) / 100);
      // A relay's price is the team's: each leg is worth its share (the last cents on the total only).
      const amountCents = legs ? item.priceCents : shareCents * d.quantidade;
      const placeCents = legs ? Math.floor(item.priceCents / legs) : shareCents;
      const what = percent < 100 ? ` – ${percent}% de cada vaga` : '';
      return {
        amountCents,
        description:
          `${d.quantidade} vagas da equipe ${team.name} – ${event.name} (${category.name})${what}`.slice(
            0,
            140,
          ),
        draft: {
          ...d,
          percentual: percent,
          evento: event.id,
          equipe_nome: team.name,
          evento_nome: event.name,
          categoria_nome: category.name,
          precoCentavos: placeCents,
          parteMembroCentavos: legs ? 0 : item.priceCents - shareCents,
          lote: item.lotName,
          ...(captain ? { capitao: { nome: captain.fullName, email: captain.email } } : {}),
        },
      };
    },
    async reserve(tx, chargeId, d) {
      await steps.hold.holdPlaces(tx, chargeId, {
        cpf: '',
        evento: d.evento,
        items: Array.from({ length: d.quantidade }, () => ({ categoryId: d.categoria })),
      });
    },
    release: (tx, chargeId) => steps.hold.release(tx, chargeId),
    async fulfil(tx, charge) {
      const d = charge.draft as TeamPlacesChargeDraft;
      const batch = await repo.insertBatch(tx, {
        teamId: d.equipe,
        eventId: d.evento,
        categoryId: d.categoria,
        chargeId: charge.id,
        quantity: d.quantidade,
        priceCents: d.precoCentavos,
        sharePercent: d.percentual ?? 100,
        memberCents: d.parteMembroCentavos ?? 0,
        claimToken: newTeamLinkToken(),
        createdAt: deps.now(),
      });
      // The purchase's NFS-e, to the company's CNPJ when the captain named one (docs/decisions/0077).
      await deps.jobs.send('fiscal.issue-team-places', { batchId: batch.id }, { tx });
      return { id: batch.id };
    },
    refusesAfterWriting: () => false,
    fulfilledBy: async (tx, chargeId) => (await repo.batchOfCharge(tx, chargeId)) ?? null,
    payer: (d) => (d.capitao ? { name: d.capitao.nome, email: d.capitao.email, page: '/conta' } : undefined),
    withoutPersonalData: ({ capitao: _, ...rest }) => rest,
  };

  /** What the claim link shows: the team, the race and how many places are left. */
  async function claimView(token: string): Promise<TeamClaimView> {
    const batch = await repo.batchOfToken(deps.db, token);
    if (!batch) throw notFound('Link de vaga não encontrado.');
    const [row] = await repo
      .batchesOf(deps.db, [batch.teamId])
      .then((rows) => rows.filter((r) => r.batch.id === batch.id));
    if (!row) throw notFound('Link de vaga não encontrado.');
    const shown = await batchOf(deps.db, row);
    return {
      equipe: (await repo.teamOf(deps.db, batch.teamId))?.name ?? '',
      evento: shown.evento,
      categoria: shown.categoria,
      disponiveis: shown.disponiveis,
      prazo: shown.prazo,
      aberto: shown.encerrado_em === null && isRegistrationOpen(shown.prazo, deps.now()),
      percentual: shown.percentual,
      a_pagar: shown.parte_membro,
    };
  }

  /** The batch a claim names, when it is open, of this race and distance, and has a place left. */
  async function claimable(tx: Tx, batch: repo.BatchRow | undefined, p: Participant) {
    if (!batch) throw notFound('Link de vaga não encontrado.');
    if (batch.closedAt) throw conflict(CLOSED, 'vagas_encerradas');
    if (
      p.evento !== batch.eventId ||
      p.categoria_evento.length !== 1 ||
      p.categoria_evento[0] !== batch.categoryId
    )
      throw badRequest('Estas vagas são de outra corrida ou distância.', 'categoria_invalida', {
        categoria_evento: 'Estas vagas são de outra corrida ou distância.',
      });
    if ((await deps.events.heldPlaces(tx, batch.chargeId, batch.categoryId)) <= 0)
      throw conflict(NONE_LEFT, 'vagas_esgotadas');
    const team = await repo.teamOf(tx, batch.teamId);
    if (!team) throw notFound('Link de vaga não encontrado.');
    return { batch, team };
  }

  /**
   * The new sale's prepare step for a claim: every rule but the price and the places, which the captain
   * paid (all, or the team's share) and holds. The runner pays the batch's member part (often nothing).
   */
  function prepareClaim(tx: Tx, user: AuthUser, p: Participant, batch: repo.BatchRow, team: JoinedTeam) {
    return steps.prepare.prepareParticipant(
      tx,
      user,
      // The team pays: no coupon, no special price, the team's own membership.
      { ...p, cupom: undefined, equipe_codigo: undefined, regra_preco: undefined, comprovante: undefined },
      [],
      {
        teamPlace: {
          batchId: batch.id,
          priceCents: batch.priceCents + batch.memberCents,
          memberCents: batch.memberCents,
          team,
        },
      },
    );
  }

  /**
   * A member claims one of the team's places with their own data, when the team paid the whole place:
   * a settled charge of nothing for the registration, and the place handed over from the captain's charge.
   */
  async function claim(user: AuthUser, token: string, p: Participant): Promise<{ inscricao_id: number }> {
    return transactionRetrying(deps.db, async (tx) => {
      const { batch, team } = await claimable(tx, await repo.lockBatch(tx, { token }), p);
      if (batch.memberCents > 0)
        throw conflict(
          `A equipe pagou ${batch.sharePercent}% desta vaga: pague a sua parte (${formatBRL(batch.memberCents)}) com Pix ou cartão.`,
          'pagamento_necessario',
        );
      const { draft } = await prepareClaim(tx, user, p, batch, team);
      const charge = await deps.payments.recordFree(tx, {
        purpose: 'registration',
        userId: user.id,
        draft,
      });
      await takePlace(tx, charge.id, draft);
      return { inscricao_id: await steps.confirm.insertParticipant(tx, charge, draft, null) };
    });
  }

  /**
   * A claim of a place the team paid part of (docs/decisions/0079): the registration charge's prepare
   * step. The member's part is the charge's amount; its reserve step takes the place from the captain's.
   */
  async function preparePaidClaim(tx: Tx, user: AuthUser, draft: unknown) {
    const outer = TeamClaimPaidDraftSchema.safeParse(draft);
    if (!outer.success) throw validationError(zodIssues(outer.error, 'vaga_equipe'));
    const parsed = ParticipantSchema.safeParse(outer.data.participante);
    if (!parsed.success) throw validationError(zodIssues(parsed.error));
    const p = parsed.data;
    const { batch, team } = await claimable(tx, await repo.batchOfToken(tx, outer.data.vaga_equipe), p);
    if (batch.memberCents === 0)
      throw conflict('A equipe já pagou esta vaga inteira: não há nada a pagar.', 'vaga_paga');
    return { p, prepared: await prepareClaim(tx, user, p, batch, team) };
  }

  /**
   * The place of a claim handed over from the captain's charge, under the batch's lock, and its shirt
   * held as in any sale. A paid claim's reserve step (again when a late payment comes) and the free one.
   */
  async function takePlace(tx: Tx, chargeId: number, draft: RegistrationDraft): Promise<void> {
    const batch = draft.teamPlace ? await repo.lockBatch(tx, { id: draft.teamPlace.batchId }) : undefined;
    if (!batch) throw notFound('Link de vaga não encontrado.');
    if (batch.closedAt) throw conflict(CLOSED, 'vagas_encerradas');
    if (!(await deps.events.movePlace(tx, batch.chargeId, chargeId, batch.categoryId)))
      throw conflict(NONE_LEFT, 'vagas_esgotadas');
    if (draft.kitSizeId !== undefined) await deps.events.reserveKit(tx, chargeId, draft.kitSizeId);
  }

  /**
   * A claimed registration cancelled (in the cancelling transaction, before its charge's places are
   * released): while its batch is open, its place goes back to the team's charge, for another member.
   */
  async function giveBack(tx: Tx, row: Pick<RegistrationRow, 'teamBatchId' | 'chargeId'>): Promise<void> {
    if (row.teamBatchId === null) return;
    const batch = await repo.lockBatch(tx, { id: row.teamBatchId });
    if (!batch || batch.closedAt) return;
    await deps.events.movePlace(tx, row.chargeId, batch.chargeId, batch.categoryId);
  }

  /**
   * Closes a batch (the registration deadline passed, or the captain is done): what nobody claimed is
   * refunded to the captain when the event's rules say `devolver`, and its places go back to sale either
   * way. Answers the refund to send after commit; null when there was nothing to return or it was closed.
   */
  async function close(tx: Tx, batchId: number): Promise<RefundRow | null> {
    const batch = await repo.lockBatch(tx, { id: batchId });
    if (!batch || batch.closedAt) return null;
    const left = await deps.events.heldPlaces(tx, batch.chargeId, batch.categoryId);
    const rule = await repo.unclaimedRule(tx, batch.eventId);
    const back = rule === 'devolver' ? left * batch.priceCents : 0;
    const refund =
      back > 0
        ? await deps.payments.refundPart(tx, batch.chargeId, {
            refundId: `equipevagas${batch.id}`,
            amountCents: back,
            reason: `${left} ${left === 1 ? 'vaga da equipe não foi usada' : 'vagas da equipe não foram usadas'} até o prazo (${formatBRL(batch.priceCents)} cada).`,
          })
        : null;
    await steps.hold.release(tx, batch.chargeId);
    await repo.markClosed(tx, batch.id, {
      closedAt: deps.now(),
      unclaimedAtClose: left,
      refundedCents: refund ? back : 0,
    });
    // The purchase's NFS-e says what was kept (docs/decisions/0077).
    if (refund) await deps.jobs.send('fiscal.team-places-reduced', { batchId: batch.id }, { tx });
    return refund;
  }

  /** The captain closes a batch of their team before the deadline. */
  async function closeByCaptain(user: AuthUser, teamId: number, batchId: number): Promise<void> {
    const refund = await deps.db.transaction(async (tx) => {
      if (!(await lockCaptainTeam(tx, user.id, teamId))) throw notFound('Equipe não encontrada.');
      const batch = await repo.lockBatch(tx, { id: batchId });
      if (!batch || batch.teamId !== teamId) throw notFound('Vagas não encontradas.');
      if (batch.closedAt) throw conflict('Estas vagas já foram encerradas.', 'vagas_encerradas');
      return close(tx, batchId);
    });
    if (refund) await deps.payments.sendRefund(refund);
  }

  /** Every open batch whose event's registration deadline passed, closed one by one. */
  async function sweep(): Promise<number> {
    let closed = 0;
    for (const open of await repo.openBatches(deps.db)) {
      if (isRegistrationOpen(open.deadline, deps.now())) continue;
      const refund = await deps.db.transaction((tx) => close(tx, open.id));
      closed++;
      if (refund) await deps.payments.sendRefund(refund);
    }
    return closed;
  }

  async function batchOf(db: Db | Tx, r: Awaited<ReturnType<typeof repo.batchesOf>>[number]): Promise<Batch> {
    const { batch } = r;
    const left = batch.closedAt ? 0 : await deps.events.heldPlaces(db, batch.chargeId, batch.categoryId);
    return {
      id: batch.id,
      evento: { id: batch.eventId, nome: r.eventName },
      categoria: { id: batch.categoryId, nome: r.categoryName },
      quantidade: batch.quantity,
      resgatadas: r.claimed,
      disponiveis: left,
      preco: centsToReais(batch.priceCents),
      percentual: batch.sharePercent,
      parte_membro: centsToReais(batch.memberCents),
      prazo: r.deadline,
      nao_resgatadas: r.unclaimedRule,
      encerrado_em: batch.closedAt?.toISOString() ?? null,
      devolvido: centsToReais(batch.refundedCents),
    };
  }

  /** The batches of these teams as the captain (with the link) or staff (without) see them. */
  async function batchesOf(teamIds: number[], opts: { eventId?: number; withLink: boolean }) {
    const rows = await repo.batchesOf(deps.db, teamIds, opts.eventId);
    const out: Array<Batch & { teamId: number; link?: string }> = [];
    for (const r of rows)
      out.push({
        ...(await batchOf(deps.db, r)),
        teamId: r.batch.teamId,
        ...(opts.withLink ? { link: claimPath(r.batch.claimToken) } : {}),
      });
    return out;
  }

  return {
    purpose,
    claimView,
    claim,
    preparePaidClaim,
    takePlace,
    giveBack,
    close,
    closeByCaptain,
    sweep,
    batchesOf,
  };
}

export type TeamPlaces = ReturnType<typeof createTeamPlaces>;
