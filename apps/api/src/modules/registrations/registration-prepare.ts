import { teamPriceCents } from '@passada/core/after-sale';
import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { PCD_CONSENT, WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import { DUPLICATE_CPF, KIT_SIZE_SOLD_OUT, type Participant } from '@passada/core/contracts/registrations';
import { isRegistrationOpen } from '@passada/core/events';
import type { Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, HttpError } from '../../plugins/errors.ts';
import { type EventRow, type OpeningGateWho, termsText, termsVersion } from '../events/events.service.ts';
import { CannotFulfil } from '../payments/payments.service.ts';
import { createReferrals } from './referrals.ts';
import type { Pricing } from './registration-price.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';
import type { TeamQuotas } from './team-quotas.ts';
import { createTeamTiers } from './team-tiers.ts';
import type { JoinedTeam, Teams } from './teams.ts';

const PARTICIPANT_TWICE_IN_CART = 'Este participante já está no carrinho para este evento.';

/** The categories a stored registration draft holds (charges.draft of an open registration charge). */
function categoriesOfDraft(draft: unknown): number[] {
  const ids = (draft as { categoria_evento?: unknown }).categoria_evento;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
}

/**
 * The prepare step: one participant checked against the server's data and priced, for the direct
 * registration and the cart alike. Each rule is a named check here, so every operation that places
 * a person in a category (a new registration, and what changes one) runs the same code.
 */
export function createPrepare(
  deps: RegistrationsServiceDeps,
  pricing: Pricing,
  teams: Pick<Teams, 'joinTeam'>,
  quotas?: Pick<TeamQuotas, 'passFor'>,
) {
  const tiers = createTeamTiers(deps);
  const referrals = createReferrals(deps);
  /**
   * The opening's rule (docs/decisions/0046, 0051, 0056), the one hook every path calls: a new sale runs
   * the opening's whole gate (waiting-room turn, lottery result, per-CPF and per-buyer limits). After
   * the sale the place already exists, so the waiting room's turn does not apply to its handover; but a
   * lottery's place belongs to a CPF drawn in its category, so on a lottery event a transfer runs the
   * gate for the new runner (only a CPF drawn in that category, within its deadline, not registered
   * yet) and a change of distance runs it for the new category (the draw's category rule refuses it).
   * On a waiting-room event a transfer runs the opening's limits per CPF and per buyer (0060). Either
   * way the new runner's CPF is counted with its transfers being paid, this one's own charges aside.
   */
  async function checkOpening(
    tx: Tx,
    event: EventRow,
    who: OpeningGateWho & { categoryIds: readonly number[] },
    operation: 'inscricao' | 'transferencia' | 'troca_distancia' = 'inscricao',
    /** A transfer's registration: its id and buying account (the place already counted for it). */
    from?: { id: number; accountUserId: number | null },
  ) {
    const mode = deps.opening?.modeOf(event.id);
    if (operation === 'inscricao') return deps.events.checkOpeningGate(tx, event, who);
    const handover =
      operation === 'transferencia'
        ? { fromUserId: from?.accountUserId ?? null, registrationId: from?.id }
        : undefined;
    if (mode === 'sorteio')
      return deps.events.checkOpeningGate(tx, event, handover ? { ...who, handover } : who);
    // A waiting room's turn governed the place's sale, not its handover: a transfer runs its limits
    // per CPF and per buyer only (docs/decisions/0060); a change of distance keeps runner and buyer.
    if (handover && mode === 'fila') await deps.events.checkOpeningGate(tx, event, { ...who, handover });
  }

  /**
   * A payment that came after its charge ended and gave its places back (docs/decisions/0060, later):
   * the opening's gate asked again for each runner it pays for, as the sale asked it (each runner of a
   * cart counting the ones before it, in the cart's (event, CPF) order), without the turn and the
   * lottery's deadline its charge already passed. Another payment may have used the CPF's or the
   * account's limit meanwhile: then CannotFulfil naming the limit, and the money goes back.
   */
  async function checkLate(tx: Tx, userId: number, drafts: readonly RegistrationDraft[]) {
    const sorted = [...drafts].sort(
      (x, y) => x.evento - y.evento || (x.cpf < y.cpf ? -1 : x.cpf > y.cpf ? 1 : 0),
    );
    const before: RegistrationDraft[] = [];
    for (const d of sorted) {
      const event = await deps.events.findEventRow(d.evento, tx);
      // Gone meanwhile: holding its places refuses it.
      if (event)
        await lateRefusal(
          checkOpening(tx, event, {
            userId,
            cpf: d.cpf,
            categoryIds: d.items.map((i) => i.categoryId),
            inSameCharge: before.filter((b) => b.evento === d.evento).length,
            late: true,
          }),
        );
      before.push(d);
    }
  }

  /** A rule's refusal (409) of a late payment, as the reason the payer reads with the refund. */
  async function lateRefusal(step: Promise<void>): Promise<void> {
    try {
      await step;
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 409)
        throw new CannotFulfil(`O pagamento chegou depois do prazo e não pôde ser aceito: ${err.detail}`);
      throw err;
    }
  }

  /** A birth date in the future is a typing mistake. */
  function checkBirthDate(birthDate: string) {
    const today = dateInTimeZone(deps.now(), STORE_TIME_ZONE);
    if (birthDate > today)
      throw badRequest('Informe uma data de nascimento válida.', 'validation_error', {
        data_nascimento: 'Informe uma data de nascimento válida.',
      });
  }

  /** Registrations close at the event's deadline (America/Fortaleza). */
  function checkOpen(event: EventRow) {
    if (!isRegistrationOpen(event.registrationDeadline, deps.now()))
      throw conflict('Inscrições encerradas', 'inscricoes_encerradas');
  }

  /**
   * The kit size chosen, checked against the event: required when its kit has sizes, refused when it
   * ran out (the reservation is the final guard against the last shirt going twice).
   */
  async function chosenKitSize(tx: Tx, event: EventRow, sizeId: number | undefined) {
    const sizes = await deps.events.findKitSizes(event.id, tx);
    if (sizes.length === 0) {
      if (sizeId !== undefined)
        throw badRequest('Este evento não tem camisa no kit.', 'tamanho_invalido', {
          tamanho_camisa: 'Este evento não tem camisa no kit.',
        });
      return null;
    }
    const size = sizes.find((s) => s.id === sizeId);
    if (!size)
      throw badRequest('Escolha o tamanho da camisa.', 'tamanho_invalido', {
        tamanho_camisa: 'Escolha o tamanho da camisa.',
      });
    if (size.left <= 0) throw conflict(KIT_SIZE_SOLD_OUT, 'tamanho_esgotado');
    return size;
  }

  /** The termo accepted must be the event's current text. */
  function checkTerms(event: EventRow, version: string | undefined) {
    if (version !== termsVersion(termsText(event)))
      throw conflict(
        'O termo de responsabilidade deste evento foi atualizado. Leia-o e aceite novamente.',
        'termo_atualizado',
      );
  }

  /**
   * The CPF holds none of these categories (serialised per CPF by an advisory lock, until the
   * transaction ends; the unique (category, cpf) index is the final guard).
   */
  async function checkCpfFree(tx: Tx, cpf: string, categoryIds: number[]) {
    await repo.lockCpf(tx, cpf);
    if ((await repo.takenCategories(tx, cpf, categoryIds)).length > 0)
      throw conflict(DUPLICATE_CPF, 'cpf_ja_inscrito');
  }

  /** Open charges of this account holding `cpf`: direct registrations and carts, their categories. */
  async function pendingCategories(tx: Tx, userId: number, cpf: string): Promise<number[]> {
    const direct = await deps.payments.openDrafts(tx, 'registration', { field: 'cpf', value: cpf }, userId);
    const carts = await deps.payments.openDrafts(tx, 'order', undefined, userId);
    const inCarts = carts.flatMap((d) => {
      const list = (d as { participants?: unknown }).participants;
      return Array.isArray(list) ? list.filter((p) => (p as { cpf?: unknown }).cpf === cpf) : [];
    });
    return [...direct, ...inCarts].flatMap(categoriesOfDraft);
  }

  /**
   * One participant checked and priced from the server's data: the direct registration and the cart
   * run the SAME checks (birth date, categories of the event and one per day, lots and 60+ half price,
   * deadline, places, kit size, PCD, termo version, CPF not already registered or pending). `inCart`
   * holds the participants already priced for the same charge: the same person twice for one event is
   * refused, and their places and shirts count as taken.
   */
  async function prepareParticipant(
    tx: Tx,
    user: AuthUser,
    p: Participant,
    inCart: readonly RegistrationDraft[] = [],
    opts: {
      preview?: boolean;
      /**
       * A team's prepaid place claimed (docs/decisions/0073): the captain's charge holds the place and
       * paid its price, and the runner joins that team; every other rule holds as for a new sale.
       */
      teamPlace?: {
        batchId: number;
        /** The place's whole price when bought. */
        priceCents: number;
        /** What the runner pays of it: the part the team did not pay (docs/decisions/0079), often 0. */
        memberCents: number;
        team: JoinedTeam;
      };
      /**
       * The team's price applies (docs/decisions/0074): the direct registration and the cart's runners,
       * whose form and cart line show it (the price endpoint with the team's code); not a claim.
       */
      teamTier?: boolean;
    } = {},
  ): Promise<{ draft: RegistrationDraft; eventName: string }> {
    checkBirthDate(p.data_nascimento);
    if (inCart.some((d) => d.cpf === p.cpf && d.evento === p.evento))
      throw conflict(PARTICIPANT_TWICE_IN_CART, 'participante_repetido');
    const { event, items, senior } = await pricing.priceChoice(
      tx,
      p.evento,
      p.categoria_evento,
      p.data_nascimento,
      tx,
    );
    checkOpen(event);
    // A relay is bought whole by its team; each runner takes a leg through the team's link (0078).
    const relay = items.find((i) => i.category.relayLegs);
    if (relay && !opts.teamPlace)
      throw conflict(
        `${relay.category.name} é um revezamento de ${relay.category.relayLegs} corredores: a equipe compra o revezamento inteiro em "Minhas equipes" e cada corredor usa o link da equipe.`,
        'revezamento',
      );
    // Closed by hand, and each category's age limits on its race day.
    deps.events.checkEligibility(
      event,
      items.map((i) => i.category),
      p.data_nascimento,
    );
    const team = opts.teamPlace?.team ?? (await teams.joinTeam(tx, event.id, p.equipe_codigo));
    // A team's quota at the opening (docs/decisions/0076): its member passes the turn and the draw.
    const quota =
      team && !opts.teamPlace
        ? await quotas?.passFor(
            tx,
            team.id,
            items.map((i) => i.category.id),
          )
        : null;
    // The opening's waiting room: only an admitted runner, within the per-CPF and per-buyer limits.
    await checkOpening(tx, event, {
      userId: user.id,
      cpf: p.cpf,
      categoryIds: items.map((i) => i.category.id),
      inSameCharge: inCart.filter((d) => d.evento === event.id).length,
      ...(quota ? { quota: true } : {}),
    });
    const heldInCart = (categoryId: number) =>
      inCart.filter((d) => d.items.some((i) => i.categoryId === categoryId)).length;
    const soldOut = items.find((i) => i.category.placesLeft - heldInCart(i.category.id) <= 0);
    if (soldOut && !opts.teamPlace)
      throw conflict(`Categoria esgotada: ${soldOut.category.name}.`, 'esgotado');
    const kit = await chosenKitSize(tx, event, p.tamanho_camisa);
    if (kit && kit.left - inCart.filter((d) => d.kitSizeId === kit.id).length <= 0)
      throw conflict(KIT_SIZE_SOLD_OUT, 'tamanho_esgotado');
    if (p.pcd && !event.offersPcd)
      throw badRequest('Este evento não oferece inscrição PCD.', 'pcd_indisponivel', {
        pcd: 'Este evento não oferece inscrição PCD.',
      });
    checkTerms(event, p.termo_versao);
    const ids = items.map((i) => i.category.id);
    await checkCpfFree(tx, p.cpf, ids);
    // Only this account's own pending charges: a stranger's unpaid charge for this CPF must not lock
    // the person out (the place stays held; if both pay, the later payment is returned). A price
    // preview skips it: the cart's own open Pix, replaced when paying again, must not refuse a coupon.
    const pending = opts.preview ? [] : await pendingCategories(tx, user.id, p.cpf);
    if (ids.some((id) => pending.includes(id)))
      throw conflict(
        'Já existe um pagamento em aberto para este CPF nesta categoria. Conclua-o ou aguarde ele expirar.',
        'pagamento_pendente',
      );
    const { teamPlace } = opts;
    const rule = teamPlace ? undefined : await pricing.underRule(tx, user, p, items);
    const priced = teamPlace
      ? {
          // The place's price is what it cost when bought; the runner pays what the team did not.
          items: items.map((item) => ({ item, priceCents: teamPlace.priceCents })),
          totalCents: teamPlace.memberCents,
          senior: false,
          coupon: undefined,
        }
      : await pricing.withCoupon(
          tx,
          { user, eventId: event.id, cpf: p.cpf, code: p.cupom },
          rule ? { items: rule.items, senior: false } : { items, senior },
        );
    // The team's tier, for a member priced by the lot alone (no coupon, 60+ half price or special price).
    const tier =
      opts.teamTier && team && !teamPlace && !rule && !priced.coupon && !priced.senior
        ? {
            percent: await tiers.percentFor(tx, event.id, team.id),
            baseCents: items.reduce((s, i) => s + i.fullPriceCents, 0),
          }
        : undefined;
    const price =
      tier && tier.percent > 0
        ? {
            ...priced,
            items: items.map((item) => ({
              item,
              priceCents: teamPriceCents(item.fullPriceCents, tier.percent),
            })),
            totalCents: items.reduce((s, i) => s + teamPriceCents(i.fullPriceCents, tier.percent), 0),
          }
        : priced;
    // A referral link's runner (docs/decisions/0086); a team's prepaid place was not sold through it.
    const referredBy = teamPlace
      ? null
      : await referrals.referrerOf(tx, p.indicacao, { eventId: event.id, cpf: p.cpf, userId: user.id });
    return {
      eventName: event.name,
      draft: {
        ...p,
        items: price.items.map(({ item, priceCents }) => ({
          categoryId: item.category.id,
          priceCents,
          lotName: item.lotName,
          ...(item.priceRuleId ? { priceRuleId: item.priceRuleId } : {}),
          ...(quota?.has(item.category.id) ? { teamQuotaId: quota.get(item.category.id) } : {}),
        })),
        totalCents: price.totalCents,
        ...(kit ? { kitSizeId: kit.id, kitSize: kit.size } : {}),
        senior: price.senior,
        ...(price.coupon ? { coupon: price.coupon } : {}),
        ...(team ? { team } : {}),
        ...(rule ? { priceRule: rule.draft } : {}),
        ...(teamPlace ? { teamPlace: { batchId: teamPlace.batchId } } : {}),
        ...(tier ? { teamTier: tier } : {}),
        ...(referredBy ? { referredBy } : {}),
        termsAcceptedAt: deps.now().toISOString(),
        consentVersions: {
          ...(p.pcd && p.pcd_consentimento ? { pcd: PCD_CONSENT.version } : {}),
          ...(p.whatsapp ? { whatsapp: WHATSAPP_CONSENT.version } : {}),
        },
      },
    };
  }

  return {
    prepareParticipant,
    joinTeam: teams.joinTeam,
    checkBirthDate,
    checkOpen,
    checkOpening,
    checkLate,
    lateRefusal,
    chosenKitSize,
    checkTerms,
    checkCpfFree,
  };
}

export type Prepare = ReturnType<typeof createPrepare>;
