import type { ParticipantLinkView } from '@passada/core/contracts/after-sale';
import type { OrderRegistration } from '@passada/core/contracts/orders';
import {
  LOOKUP_NOT_FOUND,
  type Participant,
  ParticipantSchema,
  type Registration,
  type RegistrationLookup,
} from '@passada/core/contracts/registrations';
import { ageGroup } from '@passada/core/events';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { proofsDir } from '../../ops/private-files.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import {
  badRequest,
  conflict,
  HttpError,
  notFound,
  validationError,
  zodIssues,
} from '../../plugins/errors.ts';
import type { ChargePurposeHandler, ChargeRow, RefundRow } from '../payments/payments.service.ts';
import * as afterSaleRepo from './after-sale.repository.ts';
import { billingAddressOf } from './holder.ts';
import { createParticipantLinks } from './participant-link.ts';
import { createPickupDelegation } from './pickup-delegation.ts';
import { createRuleDifference, isRuleDifferenceDraft } from './price-rule-difference.ts';
import { createPriceRuleProofs } from './price-rule-proofs.ts';
import { createReferrals } from './referrals.ts';
import { createCancel } from './registration-cancel.ts';
import { createChange, isChangeDraft } from './registration-change.ts';
import { createChangeList, isChangeListDraft } from './registration-change-list.ts';
import { createChangeManager } from './registration-change-manager.ts';
import { createChangePayment } from './registration-change-paid.ts';
import { createConfirm } from './registration-confirm.ts';
import { createHold } from './registration-hold.ts';
import { lookupWire } from './registration-lookup-wire.ts';
import { createPrepare } from './registration-prepare.ts';
import { createPricing } from './registration-price.ts';
import { createRunnerChanges } from './registration-runner.ts';
import { createTransfer, holderRegistration, isTransferDraft } from './registration-transfer.ts';
import { createWaitlist } from './registration-waitlist.ts';
import * as repo from './registrations.repository.ts';
import { participantIdentity } from './registrations-admin.ts';
import {
  type CartParticipant,
  checkinQr,
  type RegistrationDraft,
  type RegistrationsServiceDeps,
} from './registrations-context.ts';
import { createTeamInvites } from './team-invites.ts';
import { createTeamPlaces, isTeamClaimDraft } from './team-places.ts';
import { createTeamQuotas } from './team-quotas.ts';
import { createTeamTiers } from './team-tiers.ts';
import { createTeams } from './teams.ts';

export type {
  CartParticipant,
  RegistrationCancellation,
  RegistrationDraft,
  RegistrationsServiceDeps,
} from './registrations-context.ts';

const CART_RACE_COUPON = 'Cupons de corrida valem na inscrição direta; no carrinho, use um cupom da loja.';

/**
 * Event registrations: the 'registration' purpose of a charge, and the registrations it created. The
 * work is done by named steps, each in its own file (price, prepare, hold, confirm, cancel); this
 * composes them into the purpose, the cart's face and the runner's routes.
 */
/** How many registrations "Minhas inscrições" lists (newest first): a season's worth for a family. */
const ACCOUNT_REGISTRATIONS_SHOWN = 100;

export function createRegistrationsService(deps: RegistrationsServiceDeps) {
  const proofs = createPriceRuleProofs({
    db: deps.db,
    now: deps.now,
    dir: proofsDir(deps.env.dataDir),
    maxPixels: deps.env.PHOTO_MAX_PIXELS,
    env: deps.env,
    mail: deps.mail,
    users: deps.users,
    events: deps.events,
    jobs: deps.jobs,
  });
  const pricing = createPricing(deps, proofs);
  const teams = createTeams({
    db: deps.db,
    now: deps.now,
    perAccountMax: deps.env.TEAMS_PER_ACCOUNT_MAX,
    // Read when a team is shown, after every step below exists.
    placesOf: (ids, opts) => teamPlaces.batchesOf(ids, opts),
    invitesOf: (ids) => teamInvites.ofTeams(ids),
    quotasOf: (ids) => teamQuotas.ofTeams(ids),
  });
  // A captain's list of members, each invited to confirm (docs/decisions/0075).
  const teamInvites = createTeamInvites(deps);
  const referrals = createReferrals(deps);
  // Places the organiser reserves for named teams at an opening (docs/decisions/0076).
  const teamQuotas = createTeamQuotas(deps);
  const prepare = createPrepare(deps, pricing, teams, teamQuotas);
  const { prepareParticipant } = prepare;
  const waitlist = createWaitlist(deps, prepare);
  const { holdPlaces, holdParticipant, release } = createHold(deps, waitlist, teamQuotas);
  // Every change to a sold registration is decided by the change manager (docs/decisions/0056).
  const manager = createChangeManager(deps, { prepare, hold: { holdPlaces } });
  const { insertParticipant, withoutPersonalData, sendConfirmation } = createConfirm(deps, proofs);
  // A team's places bought by the captain and claimed by members (docs/decisions/0073).
  const teamPlaces = createTeamPlaces(deps, {
    pricing,
    prepare,
    hold: { holdPlaces, release },
    confirm: { insertParticipant },
  });
  const {
    cancelCharge,
    refundOtherCharges,
    cancel,
    cancelParticipant,
    sendCancellation,
    staffRefundByPayer,
  } = createCancel(deps, waitlist, teamPlaces);
  const runner = createRunnerChanges(deps, {
    cancel,
    cancelParticipant,
    proofRefused: async (db, id) => (await proofs.statusOf(db, [id])).get(id)?.status === 'recusado',
  });
  // A charge of the registration purpose may pay for a transfer instead (docs/decisions/0041).
  const transfer = createTransfer(deps, { pricing, prepare, manager, proofs });
  const links = createParticipantLinks(deps);
  const delegation = createPickupDelegation(deps);
  // And a change of distance with something to pay.
  const change = createChange(deps, { pricing, prepare, links, manager, proofs });
  // And a list of changes, its money reckoned once (one charge or one refund).
  const changePaid = createChangePayment(deps, { change, links, manager });
  // And the difference of a special price whose proof staff refused (docs/decisions/0068).
  const ruleDifference = createRuleDifference(deps, { links, proofs });
  const changeList = createChangeList(deps, { change, links, manager, transfer, runner });

  /** GET /api/inscricoes/link/{token}/: the one registration the participant's link opens. */
  async function linkView(token: string): Promise<ParticipantLinkView> {
    const holder = await links.holderOf(token);
    const row = await repo.findById(deps.db, holder.registrationId);
    const event = row && (await deps.events.findEventRow(row.eventId));
    if (!row || !event) throw notFound('Inscrição não encontrada.');
    const categories = await repo.categoriesOf(deps.db, row.id);
    return {
      inscricao: row.id,
      evento: { id: event.id, nome_evento: event.name },
      nome_completo: row.fullName,
      categorias: categories.map((c) => c.name),
      categoria_evento: categories.map((c) => c.id),
      tamanho_camisa: row.kitSize,
      cancelada_em: row.cancelledAt?.toISOString() ?? null,
      cancelamento: await runner.cancellation(holder, row.id),
      transferencia: await transfer.status(holder, row.id),
      ...((await proofs.statusOf(deps.db, [row.id])).get(row.id)?.status === 'recusado'
        ? { comprovante_recusado: true as const }
        : {}),
    };
  }

  /** A new registration's draft from the browser: the participant, priced with the team's tier. */
  async function newParticipant(tx: Tx, user: AuthUser, draft: unknown) {
    const parsed = ParticipantSchema.safeParse(draft);
    if (!parsed.success) throw validationError(zodIssues(parsed.error));
    return {
      p: parsed.data,
      prepared: await prepareParticipant(tx, user, parsed.data, [], { teamTier: true }),
    };
  }

  /** The 'registration' purpose of a charge (docs/architecture.md §5). */
  const purpose: ChargePurposeHandler<RegistrationDraft> = {
    async prepare(tx, { user, draft }) {
      if (isTransferDraft(draft)) return transfer.prepare(tx, { user, draft });
      if (isChangeListDraft(draft)) return changeList.prepare(tx, { user, draft });
      if (isChangeDraft(draft)) return changePaid.prepare(tx, { user, draft });
      if (isRuleDifferenceDraft(draft)) return ruleDifference.prepare(tx, { user, draft });
      // A team's place the team paid part of: the member pays the rest (docs/decisions/0079).
      const { p, prepared } = isTeamClaimDraft(draft)
        ? await teamPlaces.preparePaidClaim(tx, user, draft)
        : await newParticipant(tx, user, draft);
      return {
        amountCents: prepared.draft.totalCents,
        description:
          `Inscrição ${prepared.eventName}${prepared.draft.teamPlace ? ` (vaga da equipe ${prepared.draft.team?.name})` : ''}`.slice(
            0,
            140,
          ),
        draft: prepared.draft,
        billingAddress: billingAddressOf({ ...p, zipCode: p.zip_code }),
      };
    },

    // A Pix paid late: the opening's limits again, for the runner or the transfer's new runner (0060).
    // A change of distance keeps its runner and buyer: the draw's category rule does not change.
    async recheck(tx, charge) {
      const d = charge.draft as RegistrationDraft;
      if (d.transfer) return transfer.recheck(tx, charge);
      if (d.change || d.ruleDifference) return;
      await prepare.checkLate(tx, charge.userId ?? 0, [d]);
    },

    async reserve(tx, chargeId, draft) {
      if (draft.transfer) return transfer.reserve(tx, chargeId, draft);
      if (draft.change?.list) return changeList.reserve(tx, chargeId, draft);
      if (draft.change) return changePaid.reserve(tx, chargeId, draft);
      if (draft.ruleDifference) return ruleDifference.reserve(tx, chargeId, draft);
      // A team's place: the captain's charge hands it over instead of the category giving a new one.
      if (draft.teamPlace) return teamPlaces.takePlace(tx, chargeId, draft);
      await holdParticipant(tx, chargeId, draft);
      // The coupon's use is held with the places: of two buyers of its last use, one gets 409.
      if (draft.coupon) await deps.coupons.hold(tx, chargeId, draft.coupon);
    },

    async release(tx, chargeId, draft) {
      // An unpaid claim's place goes back to the team while its batch is open (else to sale, below).
      if (draft.teamPlace) await teamPlaces.giveBack(tx, { teamBatchId: draft.teamPlace.batchId, chargeId });
      await release(tx, chargeId);
      await deps.coupons.release(tx, chargeId);
    },

    async fulfil(tx, charge: ChargeRow) {
      const d = charge.draft as RegistrationDraft;
      if (d.transfer) return transfer.fulfil(tx, charge);
      if (d.change?.list) return changeList.fulfil(tx, charge);
      if (d.change) return changePaid.fulfil(tx, charge);
      if (d.ruleDifference) return ruleDifference.fulfil(tx, charge);
      const id = await insertParticipant(tx, charge, d, null);
      if (d.coupon) await deps.coupons.confirm(tx, charge.id);
      await waitlist.fulfilled(tx, charge.id);
      return { id };
    },

    async fulfilledBy(db, chargeId) {
      const row = await repo.findByCharge(db, chargeId);
      if (row) return { id: row.id };
      return (
        (await transfer.fulfilledBy(db, chargeId)) ??
        (await changePaid.fulfilledBy(db, chargeId)) ??
        ruleDifference.fulfilledBy(db, chargeId)
      );
    },

    // The event's lookup page lists the account's payments for registrations, refunds included.
    whatsappContact: (d) =>
      d.consentVersions?.whatsapp && d.numero_contato
        ? {
            name: d.nome_completo.split(' ')[0] ?? d.nome_completo,
            phone: d.numero_contato,
            what: 'a sua inscrição',
            consentAt: d.termsAcceptedAt ? new Date(d.termsAcceptedAt) : null,
          }
        : undefined,
    payer: (d) =>
      d.email
        ? { name: d.nome_completo, email: d.email, page: `/eventos/register/${d.evento}/ja-me-inscrevi` }
        : undefined,

    withoutPersonalData,
  };

  /**
   * What a shop order needs to carry event registrations in the same charge (the mixed cart,
   * docs/decisions/0020-one-cart-for-products-and-registrations.md): the same checks, holds and
   * registrations as the direct path, for several participants at once.
   */
  const cart = {
    /**
     * Each participant checked and priced; a refusal names the participant and fails the whole cart.
     * `preview`: pricing for the coupon preview, which creates nothing.
     */
    async prepare(
      tx: Tx,
      user: AuthUser,
      participants: Participant[],
      opts: { preview?: boolean } = {},
    ): Promise<CartParticipant[]> {
      const prepared: CartParticipant[] = [];
      const byIndex: CartParticipant[] = [];
      // Checked in the order of (event, CPF), the same in every cart: an opening's gate locks each CPF it
      // counts, so two carts naming the same two people the other way round would wait on each other.
      // The charge keeps the cart's own order.
      const order = [...participants.keys()].sort((a, b) => {
        const x = participants[a]!;
        const y = participants[b]!;
        return x.evento - y.evento || (x.cpf < y.cpf ? -1 : x.cpf > y.cpf ? 1 : a - b);
      });
      for (const index of order) {
        const p = participants[index]!;
        try {
          // Race coupons stay on the direct registration: the cart's one coupon is the shop's.
          if (p.cupom) throw badRequest(CART_RACE_COUPON, 'cupom_nao_aplicavel', { cupom: CART_RACE_COUPON });
          // The team's price as on the direct registration: the cart's line shows the same (0074, later).
          const one = await prepareParticipant(
            tx,
            user,
            p,
            prepared.map((x) => x.draft),
            { ...opts, teamTier: true },
          );
          prepared.push(one);
          byIndex[index] = one;
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          const errors = err.errors
            ? Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [`inscricoes.${index}.${k}`, v]))
            : undefined;
          throw new HttpError(
            err.statusCode,
            `${p.nome_completo}: ${err.detail}`,
            err.code,
            errors,
            err.extra,
          );
        }
      }
      return byIndex;
    },
    /** A cart paid late: the opening's limits again for its participants, as `prepare` counted them. */
    recheck: (tx: Tx, charge: ChargeRow, drafts: readonly RegistrationDraft[]) =>
      prepare.checkLate(tx, charge.userId ?? 0, drafts),
    /** Places and shirts of every participant, in the charge's transaction. */
    async hold(tx: Tx, chargeId: number, drafts: readonly RegistrationDraft[]): Promise<void> {
      for (const d of drafts) await holdParticipant(tx, chargeId, d);
    },
    /** Gives back every place and shirt the charge still holds. */
    release,
    /** One registration per participant, linked to the order; CannotFulfil for any of them fails all. */
    async fulfil(tx: Tx, charge: ChargeRow, drafts: readonly RegistrationDraft[], orderId: number) {
      const ids: number[] = [];
      for (const d of drafts) ids.push(await insertParticipant(tx, charge, d, orderId));
      // Only a charge with participants can be a waitlist offer's (a cart of products skips the read).
      if (drafts.length > 0) await waitlist.fulfilled(tx, charge.id);
      return ids;
    },
    withoutPersonalData,
    /**
     * Cancels every registration the order's charge paid for and gives back their places and
     * shirts, in the caller's transaction; participants who are not the buyer get an e-mail. The
     * order's charge is the caller's to return; the charges of the registrations' transfers and paid
     * changes of distance give back what they have left here (docs/decisions/0047): `refunds`, which
     * the caller sends after commit.
     */
    async cancel(
      tx: Tx,
      chargeId: number,
      reason: string | null,
      refundReason: string,
    ): Promise<{ ids: number[]; refunds: RefundRow[] }> {
      const cancelled = await cancelCharge(tx, chargeId, reason);
      const refunds = await refundOtherCharges(tx, cancelled, refundReason);
      for (const r of cancelled) {
        await deps.jobs.send('mail.registration-cancelled', { registrationId: r.id }, { tx });
        await deps.jobs.send('fiscal.cancel-registration', { registrationId: r.id }, { tx });
      }
      return { ids: cancelled.map((r) => r.id), refunds };
    },
    /**
     * One participant of the order withdrawn alone, refunded by its race's rules (docs/decisions/0041);
     * answers the refund the caller sends after commit.
     */
    cancelParticipant: (tx: Tx, registrationId: number, reason: string) =>
      runner.cancelInOrder(tx, registrationId, reason),
    /** The registrations each order paid for, as the order shows them. */
    async ofOrders(orderIds: number[], db: Db | Tx = deps.db): Promise<Map<number, OrderRegistration[]>> {
      const byOrder = new Map<number, OrderRegistration[]>();
      for (const row of await repo.listByOrders(db, orderIds)) {
        const categories = await repo.categoriesOf(db, row.id);
        const list = byOrder.get(row.orderId) ?? [];
        list.push({
          id: row.id,
          evento: row.eventId,
          nome_evento: row.eventName,
          nome_completo: row.fullName,
          categorias: categories.map((c) => c.name),
          tamanho_camisa: row.kitSize,
          total: centsToReais(row.totalCents),
          cancelada: row.cancelledAt !== null,
        });
        byOrder.set(row.orderId, list);
      }
      return byOrder;
    },
  };

  async function toWire(row: repo.RegistrationRow): Promise<Registration> {
    const categories = await repo.categoriesOf(deps.db, row.id);
    const event = await deps.events.findEventRow(row.eventId);
    return {
      ...participantIdentity(row),
      endereco: row.address,
      categoria_evento: categories.map((c) => c.id),
      categoria_evento_detalhes: categories.map((c) => ({
        id: c.id,
        nome_categoria: c.name,
        preco: centsToReais(c.priceCents),
      })),
      street: row.street,
      zip_code: row.zipCode,
      state: row.state,
      city: row.city,
      neighborhood: row.neighborhood,
      tamanho_camisa: row.kitSize,
      equipe: row.team,
      faixa_etaria: ageGroup(row.birthDate, event?.startDate ?? row.birthDate),
      meia_entrada: row.seniorDiscount,
      total: centsToReais(row.totalCents),
      ...(row.couponCode ? { cupom: row.couponCode, desconto: centsToReais(row.discountCents) } : {}),
      criado_em: row.createdAt.toISOString(),
    };
  }

  /**
   * POST /api/participantes/cadastrar/: the registration the paid charge created. The confirmation
   * creates it exactly once; this call only answers it.
   */
  async function registrationForCharge(
    user: AuthUser,
    input: { txid: string; cpf: string; evento: number },
  ): Promise<Registration> {
    const charge = await deps.payments.findByTxid(input.txid);
    if (!charge || charge.userId !== user.id || charge.purpose !== 'registration')
      throw notFound('Pagamento não encontrado.');
    const draft = charge.draft as RegistrationDraft;
    if (draft.cpf !== input.cpf || draft.evento !== input.evento)
      throw conflict('Os dados não correspondem aos do pagamento.', 'dados_divergentes');
    const row = charge.status === 'CONCLUIDA' ? await repo.findByCharge(deps.db, charge.id) : null;
    if (!row) throw conflict('O pagamento ainda não foi confirmado.', 'pagamento_nao_confirmado');
    return toWire(row);
  }

  /** Only registrations the asking account made; any other CPF does not exist for them. */
  async function lookup(user: AuthUser, cpfParam: string, eventId?: number): Promise<RegistrationLookup> {
    const cpf = cpfParam.replace(/\D/g, '');
    const row = cpf.length === 11 ? await repo.findLatestForAccount(deps.db, user.id, cpf, eventId) : null;
    if (!row) throw notFound(LOOKUP_NOT_FOUND);
    return lookupAnswer(row);
  }

  /**
   * "Minhas inscrições": every registration the account made, on the event page or in an order, the latest registrations, read in a few statements whatever their
   * number (categories, events and histories at once), without their QR codes: the card asks for each
   * one's ticket (`ticketOf`) when it shows it (docs/decisions/0047).
   */
  async function ofAccount(user: AuthUser): Promise<RegistrationLookup[]> {
    const rows = await repo.findForAccount(deps.db, user.id, ACCOUNT_REGISTRATIONS_SHOWN);
    const ids = rows.map((r) => r.id);
    const [categories, afterSale, events, proofStatus, referral] = await Promise.all([
      repo.categoriesOfMany(deps.db, ids),
      afterSaleRepo.afterSaleOf(deps.db, ids),
      Promise.all([...new Set(rows.map((r) => r.eventId))].map((id) => deps.events.findEventRow(id))),
      proofs.statusOf(deps.db, ids),
      referrals.statusOf(deps.db, rows),
    ]);
    const eventOf = new Map(events.flatMap((e) => (e ? [[e.id, e] as const] : [])));
    const waves = await deps.events.waves.names(
      deps.db,
      [...categories.values()].flat().map((c) => c.waveId),
    );
    return rows.map((row) =>
      lookupWire(row, {
        categories: categories.get(row.id) ?? [],
        waves,
        event: eventOf.get(row.eventId),
        history: afterSale.history.get(row.id),
        paidDifferenceCents: afterSale.paidDifferenceCents.get(row.id) ?? 0,
        qrCode: null,
        proofRefused: proofStatus.get(row.id)?.status === 'recusado',
        referral: referral.get(row.id),
      }),
    );
  }

  /** GET /api/inscricoes/{id}/qr-code/: the kit-pickup QR of the account's own standing registration. */
  async function ticketOf(user: AuthUser, id: number): Promise<{ qr_code: string }> {
    const row = await holderRegistration(deps.db, { by: 'comprador', user }, id);
    if (row.cancelledAt) throw conflict('Esta inscrição foi cancelada.', 'inscricao_cancelada');
    return { qr_code: await checkinQr(deps, row) };
  }

  async function lookupAnswer(
    row: repo.RegistrationRow & { eventName: string },
  ): Promise<RegistrationLookup> {
    const [categories, event, afterSale, proofStatus] = await Promise.all([
      repo.categoriesOf(deps.db, row.id),
      deps.events.findEventRow(row.eventId),
      afterSaleRepo.afterSaleOf(deps.db, [row.id]),
      proofs.statusOf(deps.db, [row.id]),
    ]);
    // A cancelled registration's QR would only be refused at kit pickup.
    const qrCode = row.cancelledAt ? null : await checkinQr(deps, row);
    return lookupWire(row, {
      categories,
      waves: await deps.events.waves.names(
        deps.db,
        categories.map((c) => c.waveId),
      ),
      event,
      history: afterSale.history.get(row.id),
      paidDifferenceCents: afterSale.paidDifferenceCents.get(row.id) ?? 0,
      qrCode,
      proofRefused: proofStatus.get(row.id)?.status === 'recusado',
    });
  }

  return {
    purpose,
    cart,
    quote: pricing.quote,
    pricePreview: pricing.pricePreview,
    registrationForCharge,
    lookup,
    ofAccount,
    ticketOf,
    sendConfirmation,
    cancel,
    cancelParticipant,
    sendCancellation,
    staffRefundByPayer,
    runner,
    waitlist,
    transfer,
    change,
    changeList,
    ruleDifference,
    links,
    linkView,
    delegation,
    teams,
    teamPlaces,
    teamQuotas,
    teamTiers: createTeamTiers(deps),
    referrals,
    teamInvites,
    proofs,
  };
}

export type RegistrationsService = ReturnType<typeof createRegistrationsService>;
export type RegistrationsCart = RegistrationsService['cart'];
