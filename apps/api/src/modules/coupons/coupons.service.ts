import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import { COUPON_MESSAGES, couponMinimumMessage } from '@passada/core/contracts/coupon-code';
import type { CouponFields, PainelCoupon } from '@passada/core/contracts/coupons';
import { type CouponRule, couponDiscountCents, couponLabel } from '@passada/core/coupons';
import { centsToReais, formatBRL, reaisToCents } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, HttpError, notFound } from '../../plugins/errors.ts';
import type { EventsService } from '../events/events.service.ts';
import { isUniqueViolation } from '../payments/payments.service.ts';
import * as repo from './coupons.repository.ts';

export interface CouponsServiceDeps {
  db: Db;
  now: () => Date;
  events: Pick<EventsService, 'findEventRow' | 'findCategories'>;
}

/** One priced line of a draft, with what decides whether the coupon covers it. */
export interface CouponLine {
  amountCents: number;
  /** Shop lines: the product's category. */
  productCategory?: string;
  /** Race lines: the event and the event category. */
  eventId?: number;
  eventCategoryId?: number;
}

/** A coupon priced for a draft: stored on the charge's draft and, once paid, on the order/registration. */
export interface AppliedCoupon {
  couponId: number;
  code: string;
  discountCents: number;
  label: string;
  /** Whose use it is: the signed-in account, and the participant's CPF for registrations. */
  userId: number;
  cpf?: string | undefined;
}

export interface CouponQuoteInput {
  code: string;
  scope: 'loja' | 'corridas';
  userId: number;
  /** The participant's CPF (registrations): counted against the per-CPF limit. */
  cpf?: string | undefined;
  lines: CouponLine[];
  /** The whole charge before the coupon (shipping included): the discount takes all of it or leaves at least R$ 1,00. */
  totalCents: number;
}

/** A purpose's price of a draft with its coupon, for the preview before paying. */
export interface DraftPrice {
  beforeCents: number;
  totalCents: number;
  coupon: AppliedCoupon | null;
}
export type DraftPricer = (tx: Tx, input: { user: AuthUser; draft: unknown }) => Promise<DraftPrice>;
export type CouponPurpose = 'order' | 'registration';

const refuse = (message: string, code: string) => badRequest(message, code, { cupom: message });
const refuseConflict = (message: string, code: string) =>
  new HttpError(409, message, code, { cupom: message });

const ruleOf = (c: repo.CouponRow): CouponRule => ({
  kind: c.kind,
  percent: c.percent,
  amountCents: c.amountCents,
});

function covers(c: repo.CouponRow, line: CouponLine): boolean {
  if (c.scope === 'loja')
    return c.productCategories.length === 0 || c.productCategories.includes(line.productCategory as never);
  return (
    (c.eventIds.length === 0 || c.eventIds.includes(line.eventId ?? -1)) &&
    (c.eventCategoryIds.length === 0 || c.eventCategoryIds.includes(line.eventCategoryId ?? -1))
  );
}

/** Why no line of the draft is covered, in the words the buyer reads. */
function notCoveredMessage(c: repo.CouponRow, lines: CouponLine[]): string {
  if (c.scope === 'loja') return COUPON_MESSAGES.notForProducts;
  const eventMatches = c.eventIds.length === 0 || lines.some((l) => c.eventIds.includes(l.eventId ?? -1));
  return eventMatches ? COUPON_MESSAGES.notForCategory : COUPON_MESSAGES.notForEvent;
}

/** The limits against held and confirmed uses; 409 when one is reached. */
function checkLimits(c: repo.CouponRow, counts: repo.UseCounts, cpf: string | undefined): void {
  if (c.maxUses !== null && counts.total >= c.maxUses)
    throw refuseConflict(COUPON_MESSAGES.usedUp, 'cupom_esgotado');
  if (c.maxUsesPerAccount !== null && counts.account >= c.maxUsesPerAccount)
    throw refuseConflict(COUPON_MESSAGES.alreadyUsed, 'cupom_ja_usado');
  if (cpf && c.maxUsesPerCpf !== null && counts.cpf >= c.maxUsesPerCpf)
    throw refuseConflict(COUPON_MESSAGES.alreadyUsed, 'cupom_ja_usado');
}

function toPainel(c: repo.CouponWithUses): PainelCoupon {
  return {
    id: c.id,
    codigo: c.code,
    descricao: c.description,
    tipo: c.kind,
    valor: c.kind === 'percentual' ? (c.percent ?? 0) : centsToReais(c.amountCents ?? 0),
    valido_de: c.validFrom,
    valido_ate: c.validUntil,
    usos_max: c.maxUses,
    usos_por_cpf: c.maxUsesPerCpf,
    usos_por_conta: c.maxUsesPerAccount,
    valor_minimo: c.minAmountCents === null ? null : centsToReais(c.minAmountCents),
    escopo: c.scope,
    categorias_produto: c.productCategories,
    eventos: c.eventIds,
    categorias_evento: c.eventCategoryIds,
    ativo: c.active,
    usos_confirmados: c.confirmedUses,
    usos_reservados: c.heldUses,
    desconto_total: centsToReais(c.confirmedDiscountCents),
    criado_em: c.createdAt.toISOString(),
  };
}

const CODE_TAKEN = 'Já existe um cupom com este código.';

/**
 * Discount coupons (modules/coupons/README.md): priced on the server for a purpose's draft, a use
 * held with the charge, given back when it ends unpaid and confirmed when it is paid.
 */
export function createCouponsService(deps: CouponsServiceDeps) {
  const pricers = new Map<CouponPurpose, DraftPricer>();

  /**
   * The coupon for these lines, or the refusal the buyer reads (400 when it does not apply, 409 when
   * its uses ran out). Counts uses without a lock: `hold` counts again under the coupon's row lock.
   */
  async function quote(conn: Db | Tx, input: CouponQuoteInput): Promise<AppliedCoupon> {
    const coupon = await repo.findByCode(conn, input.code);
    if (!coupon?.active) throw refuse(COUPON_MESSAGES.invalid, 'cupom_invalido');
    if (coupon.scope !== input.scope)
      throw refuse(
        coupon.scope === 'loja' ? COUPON_MESSAGES.onlyShop : COUPON_MESSAGES.onlyRaces,
        'cupom_nao_aplicavel',
      );
    const today = dateInTimeZone(deps.now(), STORE_TIME_ZONE);
    if (coupon.validFrom && today < coupon.validFrom)
      throw refuse(COUPON_MESSAGES.notYet, 'cupom_nao_iniciado');
    if (coupon.validUntil && today > coupon.validUntil)
      throw refuse(COUPON_MESSAGES.expired, 'cupom_expirado');
    const eligible = input.lines.filter((l) => covers(coupon, l));
    if (eligible.length === 0) throw refuse(notCoveredMessage(coupon, input.lines), 'cupom_nao_aplicavel');
    const eligibleCents = eligible.reduce((sum, l) => sum + l.amountCents, 0);
    if (coupon.minAmountCents !== null && eligibleCents < coupon.minAmountCents)
      throw refuse(couponMinimumMessage(formatBRL(coupon.minAmountCents)), 'cupom_valor_minimo');
    checkLimits(coupon, await repo.countUses(conn, coupon.id, input), input.cpf);
    const discountCents = couponDiscountCents(ruleOf(coupon), eligibleCents, input.totalCents);
    if (discountCents <= 0) throw refuse(COUPON_MESSAGES.tooSmall, 'cupom_nao_aplicavel');
    return {
      couponId: coupon.id,
      code: coupon.code,
      discountCents,
      label: couponLabel(ruleOf(coupon), coupon.scope),
      userId: input.userId,
      ...(input.cpf ? { cpf: input.cpf } : {}),
    };
  }

  /**
   * Holds the coupon's use for a charge, in the charge's transaction (a purpose's `reserve`). The
   * coupon's row lock makes holds of one coupon take turns, so its limits hold under concurrency;
   * 409 when the last use went to someone else (a late Pix paid after that is returned).
   */
  async function hold(tx: Tx, chargeId: number, applied: AppliedCoupon): Promise<void> {
    const coupon = await repo.lockCoupon(tx, applied.couponId);
    if (!coupon) throw refuse(COUPON_MESSAGES.invalid, 'cupom_invalido');
    checkLimits(coupon, await repo.countUses(tx, coupon.id, applied, chargeId), applied.cpf);
    await repo.holdUse(tx, {
      couponId: coupon.id,
      chargeId,
      userId: applied.userId,
      cpf: applied.cpf ?? null,
      discountCents: applied.discountCents,
      at: deps.now(),
    });
  }

  /** A purpose's `release`: the charge ended unpaid, its use counts no more. */
  const release = (tx: Tx, chargeId: number) => repo.releaseUse(tx, chargeId, deps.now());
  /** A purpose's `fulfil`: the use is spent for good. */
  const confirm = (tx: Tx, chargeId: number) => repo.confirmUse(tx, chargeId, deps.now());
  /** A paid order cancelled and refunded by the shop: its use, even spent, is given back. */
  const returnUse = (tx: Tx, chargeId: number) => repo.returnUse(tx, chargeId, deps.now());

  /** Orders and registrations price their drafts for the preview through the same code as the charge. */
  function registerPricer(purpose: CouponPurpose, pricer: DraftPricer): void {
    pricers.set(purpose, pricer);
  }

  /** `POST /api/cupons/validar/`: the draft priced with the coupon, without creating anything. */
  async function preview(user: AuthUser, purpose: CouponPurpose, code: string, draft: unknown) {
    const pricer = pricers.get(purpose);
    if (!pricer) throw new HttpError(503, 'Cupons indisponíveis no momento.', 'cupom_indisponivel');
    const withCoupon = draft && typeof draft === 'object' ? { ...draft, cupom: code } : draft;
    const price = await deps.db.transaction((tx) => pricer(tx, { user, draft: withCoupon }));
    if (!price.coupon) throw refuse(COUPON_MESSAGES.invalid, 'cupom_invalido');
    return {
      cupom: price.coupon.code,
      desconto: centsToReais(price.coupon.discountCents),
      total_sem_desconto: centsToReais(price.beforeCents),
      total: centsToReais(price.totalCents),
      descricao: price.coupon.label,
    };
  }

  /** The ids chosen for a race coupon exist: a typo must not make a coupon that fits nothing. */
  async function checkRaceScope(tx: Tx, fields: CouponFields): Promise<void> {
    for (const id of fields.eventos)
      if (!(await deps.events.findEventRow(id, tx)))
        throw badRequest(`Evento não encontrado: ${id}.`, 'validation_error', {
          eventos: `Evento não encontrado: ${id}.`,
        });
    const found = await deps.events.findCategories(fields.categorias_evento, tx);
    if (found.length !== fields.categorias_evento.length)
      throw badRequest('Categoria de evento não encontrada.', 'validation_error', {
        categorias_evento: 'Categoria de evento não encontrada.',
      });
    if (fields.eventos.length > 0 && found.some((c) => !fields.eventos.includes(c.eventId)))
      throw badRequest('A categoria não é de um dos eventos escolhidos.', 'validation_error', {
        categorias_evento: 'A categoria não é de um dos eventos escolhidos.',
      });
  }

  function columns(fields: CouponFields): repo.NewCoupon {
    return {
      code: fields.codigo,
      description: fields.descricao,
      kind: fields.tipo,
      percent: fields.tipo === 'percentual' ? fields.valor : null,
      amountCents: fields.tipo === 'fixo' ? reaisToCents(fields.valor) : null,
      validFrom: fields.valido_de,
      validUntil: fields.valido_ate,
      maxUses: fields.usos_max,
      maxUsesPerCpf: fields.usos_por_cpf,
      maxUsesPerAccount: fields.usos_por_conta,
      minAmountCents: fields.valor_minimo === null ? null : reaisToCents(fields.valor_minimo),
      scope: fields.escopo,
      productCategories: fields.categorias_produto,
      eventIds: fields.eventos,
      eventCategoryIds: fields.categorias_evento,
      active: fields.ativo,
    };
  }

  /** A code already taken (any case) is a 409 on the code field, never a 500. */
  async function uniqueCode<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err))
        throw new HttpError(409, CODE_TAKEN, 'cupom_existente', { codigo: CODE_TAKEN });
      throw err;
    }
  }

  /** The back office's side: list, read, create and edit (deactivating is an edit). */
  const admin = {
    async list(): Promise<PainelCoupon[]> {
      return (await repo.listWithUses(deps.db)).map(toPainel);
    },
    async get(id: number, conn: Db | Tx = deps.db): Promise<PainelCoupon> {
      const [row] = await repo.listWithUses(conn, id);
      if (!row) throw notFound('Cupom não encontrado.');
      return toPainel(row);
    },
    /** In the caller's transaction, so the audit line commits with the change. */
    async create(tx: Tx, fields: CouponFields): Promise<PainelCoupon> {
      await checkRaceScope(tx, fields);
      const now = deps.now();
      const row = await uniqueCode(() =>
        tx.transaction((sp) => repo.insertCoupon(sp, { ...columns(fields), createdAt: now, updatedAt: now })),
      );
      return admin.get(row.id, tx);
    },
    /** Answers the coupon before and after, for the audit line. */
    async update(
      tx: Tx,
      id: number,
      fields: CouponFields,
    ): Promise<{ before: PainelCoupon; after: PainelCoupon }> {
      const before = await admin.get(id, tx);
      await checkRaceScope(tx, fields);
      const row = await uniqueCode(() =>
        tx.transaction((sp) => repo.updateCoupon(sp, id, { ...columns(fields), updatedAt: deps.now() })),
      );
      if (!row) throw notFound('Cupom não encontrado.');
      return { before, after: await admin.get(row.id, tx) };
    },
  };

  return { quote, hold, release, confirm, returnUse, registerPricer, preview, admin };
}

export type CouponsService = ReturnType<typeof createCouponsService>;
