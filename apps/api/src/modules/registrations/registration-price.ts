import { teamPriceCents } from '@passada/core/after-sale';
import { PCD_PROOF_CONSENT } from '@passada/core/contracts/consents';
import { COUPON_MESSAGES } from '@passada/core/contracts/coupon-code';
import { type PriceResponse, RegistrationPriceDraftSchema } from '@passada/core/contracts/registrations';
import { isSenior, registrationPrice } from '@passada/core/events';
import { centsToReais, reaisToCents } from '@passada/core/money';
import { type PriceRuleDiscount, priceUnderRule } from '@passada/core/price-rules';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, notFound, validationError, zodIssues } from '../../plugins/errors.ts';
import type { AppliedCoupon, DraftPricer } from '../coupons/coupons.service.ts';
import type { CategoryInfo, EventRow } from '../events/events.service.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import { createTeamTiers } from './team-tiers.ts';
import { teamByCode } from './teams.repository.ts';

const RULE_AND_COUPON = 'O cupom não se soma a um preço especial: escolha um dos dois.';
const PROOF_MISSING = 'Envie o comprovante que este preço especial pede.';
const PROOF_CONSENT_MISSING = 'Para enviar o documento de PCD, autorize o uso desta informação.';

export interface PricedItem {
  category: CategoryInfo;
  /** The lot's price (or the category's), before the 60+ half price. */
  fullPriceCents: number;
  priceCents: number;
  lotName: string | null;
  /** The price rule that priced it (docs/decisions/0068), if any. */
  priceRuleId?: number;
}

/**
 * The price step: categories checked against the event and priced from the lot in force, the 60+
 * half price and the coupon. A new registration, the price endpoint and the coupon preview all use it.
 */
export function createPricing(
  deps: RegistrationsServiceDeps,
  proofs: Pick<PriceRuleProofs, 'checkForDraft'>,
) {
  const tiers = createTeamTiers(deps);
  /**
   * The event's categories chosen, checked against the event (they belong to it, one per day) and
   * priced for this participant (half price for 60+ on each category's own day).
   */
  async function priceChoice(
    db: Db | Tx,
    eventId: number,
    categoryIds: number[],
    birthDate: string | undefined,
    lock?: Tx,
  ): Promise<{ event: EventRow; items: PricedItem[]; senior: boolean }> {
    const event = await deps.events.findEventRow(eventId, db);
    if (!event) throw notFound('Evento não encontrado.');
    const found = await deps.events.findCategories(categoryIds, db);
    if (found.length !== new Set(categoryIds).size || found.some((c) => c.eventId !== eventId))
      throw badRequest('Categoria não pertence a este evento.', 'categoria_invalida', {
        categoria_evento: 'Categoria não pertence a este evento.',
      });
    const days = new Set(found.map((c) => c.dayId));
    if (days.size !== found.length)
      throw badRequest('Escolha apenas uma categoria por dia.', 'uma_categoria_por_dia', {
        categoria_evento: 'Escolha apenas uma categoria por dia.',
      });
    // The lot in force now prices each category; the 60+ half price applies to the lot's price.
    const prices = await deps.events.currentPrices(found, db, lock);
    const items = found.map((category) => {
      const lot = prices.get(category.id) ?? { priceCents: category.priceCents, lotName: null };
      return {
        category,
        lotName: lot.lotName,
        fullPriceCents: lot.priceCents,
        priceCents: birthDate ? registrationPrice(lot.priceCents, birthDate, category.date) : lot.priceCents,
      };
    });
    const senior = birthDate ? found.some((c) => isSenior(birthDate, c.date)) : false;
    return { event, items, senior };
  }

  /**
   * The price rule the runner chose (docs/decisions/0068), checked for one of the chosen categories
   * and this CPF, with its proof when it asks one; that category priced under it from the lot's full
   * price (instead of the 60+ half price: the runner picks one). No coupon on top of it. Undefined
   * when no rule was chosen. The cap is counted when the place is held (`reservePlaces`).
   */
  async function underRule(
    tx: Tx,
    user: AuthUser,
    p: {
      regra_preco?: number | undefined;
      comprovante?: string | undefined;
      comprovante_consentimento?: boolean | undefined;
      cpf: string;
      cupom?: string | undefined;
    },
    items: PricedItem[],
  ) {
    if (p.regra_preco === undefined) return undefined;
    const item = (rule: { categoryId: number }) => items.find((i) => i.category.id === rule.categoryId);
    const rule = await deps.events.priceRules.forRegistration(tx, {
      ruleId: p.regra_preco,
      categoryIds: items.map((i) => i.category.id),
      cpf: p.cpf,
    });
    if (p.cupom) throw badRequest(RULE_AND_COUPON, 'cupom_nao_acumula', { cupom: RULE_AND_COUPON });
    let proof: string | null = null;
    if (rule.proofRequired) {
      if (!p.comprovante)
        throw badRequest(PROOF_MISSING, 'comprovante_ausente', { comprovante: PROOF_MISSING });
      // A PCD document is health data: sent only with its own consent (LGPD art. 11 I).
      if (rule.audience === 'pcd' && !p.comprovante_consentimento)
        throw badRequest(PROOF_CONSENT_MISSING, 'consentimento_ausente', {
          comprovante_consentimento: PROOF_CONSENT_MISSING,
        });
      proof = await proofs.checkForDraft(tx, user.id, p.comprovante);
    }
    const ruled = item(rule);
    return {
      items: items.map((i) =>
        i === ruled
          ? {
              ...i,
              priceCents: priceUnderRule(
                { discount: rule.discount as PriceRuleDiscount, fixedPriceCents: rule.fixedPriceCents },
                i.fullPriceCents,
              ),
              priceRuleId: rule.id,
            }
          : i,
      ),
      draft: {
        id: rule.id,
        name: rule.name,
        proof,
        reviewHours: rule.reviewHours,
        ...(rule.audience === 'pcd' && proof ? { consent: PCD_PROOF_CONSENT.version } : {}),
      },
    };
  }

  /**
   * The price with a coupon. Coupon and 60+ half price do not add up: the better of the two applies.
   * With the coupon, the categories are priced at the lot's full price and the coupon is taken off;
   * when the half price is as good or better, the coupon is refused so the buyer knows why.
   */
  async function withCoupon(
    tx: Tx,
    input: { user: AuthUser; eventId: number; cpf?: string | undefined; code?: string | undefined },
    priced: { items: PricedItem[]; senior: boolean },
  ) {
    const beforeCents = priced.items.reduce((s, i) => s + i.priceCents, 0);
    const plain = {
      items: priced.items.map((i) => ({ item: i, priceCents: i.priceCents })),
      senior: priced.senior,
      beforeCents,
      totalCents: beforeCents,
      coupon: undefined as AppliedCoupon | undefined,
    };
    if (!input.code) return plain;
    const fullCents = priced.items.reduce((s, i) => s + i.fullPriceCents, 0);
    const coupon = await deps.coupons.quote(tx, {
      code: input.code,
      scope: 'corridas',
      userId: input.user.id,
      cpf: input.cpf,
      lines: priced.items.map((i) => ({
        amountCents: i.fullPriceCents,
        eventId: input.eventId,
        eventCategoryId: i.category.id,
      })),
      totalCents: fullCents,
    });
    if (priced.senior && fullCents - coupon.discountCents >= beforeCents)
      throw badRequest(COUPON_MESSAGES.seniorIsBetter, 'cupom_nao_acumula', {
        cupom: COUPON_MESSAGES.seniorIsBetter,
      });
    return {
      items: priced.items.map((i) => ({ item: i, priceCents: i.fullPriceCents })),
      senior: false,
      beforeCents: fullCents,
      totalCents: fullCents - coupon.discountCents,
      coupon,
    };
  }

  /** GET /api/events/{id}/preco/: the price the form shows, from the same rules as the charge. */
  async function quote(
    eventId: number,
    categoryIds: number[],
    birthDate: string | undefined,
    ruleId?: number,
    teamCode?: string,
  ): Promise<PriceResponse> {
    const chosen = await priceChoice(deps.db, eventId, [...new Set(categoryIds)], birthDate);
    let { items, senior } = chosen;
    if (ruleId !== undefined) {
      // The rule's price now, as the form offers it (the same reckoning, from the lot in force).
      const rule = (await deps.events.priceRules.ofEvent(eventId)).find(
        (r) => r.id === ruleId && items.some((i) => i.category.id === r.categoria),
      );
      if (!rule)
        throw badRequest('Este preço especial não é destas categorias.', 'regra_preco_invalida', {
          regra: 'Este preço especial não é destas categorias.',
        });
      items = items.map((i) =>
        i.category.id === rule.categoria ? { ...i, priceCents: reaisToCents(rule.preco) } : i,
      );
      // The runner picks one: the special price replaces the 60+ half price of its race.
      senior =
        senior && items.some((i) => i.category.id !== rule.categoria && i.priceCents < i.fullPriceCents);
    }
    // The team's price, as the charge gives it: for a runner priced by the lot alone (0074).
    const code = teamCode?.replace(/[\s-]/g, '').toUpperCase();
    const team = code && ruleId === undefined && !senior ? await teamByCode(deps.db, code) : undefined;
    const percent =
      team && (team.eventId === null || team.eventId === eventId) && !team.closedAt
        ? await tiers.percentFor(deps.db, eventId, team.id)
        : 0;
    if (percent > 0)
      items = items.map((i) => ({ ...i, priceCents: teamPriceCents(i.fullPriceCents, percent) }));
    const totalCents = items.reduce((s, i) => s + i.priceCents, 0);
    return {
      itens: items.map((i) => ({
        id: i.category.id,
        nome_categoria: i.category.name,
        data: i.category.date,
        preco_inscricao: centsToReais(i.fullPriceCents),
        preco: centsToReais(i.priceCents),
        lote: i.lotName,
      })),
      meia_entrada: senior,
      ...(percent > 0 ? { desconto_equipe: percent } : {}),
      total: centsToReais(totalCents),
      total_centavos: totalCents,
    };
  }

  /**
   * The coupon preview of the event form: priced like the charge, from the event, the categories and,
   * when typed, the birth date and the CPF (the charge checks the whole form again).
   */
  const pricePreview: DraftPricer = async (tx, { user, draft }) => {
    const parsed = RegistrationPriceDraftSchema.safeParse(draft);
    if (!parsed.success) throw validationError(zodIssues(parsed.error));
    const d = parsed.data;
    const priced = await priceChoice(tx, d.evento, d.categoria_evento, d.data_nascimento);
    const price = await withCoupon(tx, { user, eventId: d.evento, cpf: d.cpf, code: d.cupom }, priced);
    return { beforeCents: price.beforeCents, totalCents: price.totalCents, coupon: price.coupon ?? null };
  };

  return { priceChoice, underRule, withCoupon, quote, pricePreview };
}

export type Pricing = ReturnType<typeof createPricing>;
