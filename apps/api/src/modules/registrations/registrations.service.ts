import { dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import { COUPON_MESSAGES } from '@passada/core/contracts/coupon-code';
import type { OrderRegistration } from '@passada/core/contracts/orders';
import {
  DUPLICATE_CPF,
  KIT_SIZE_SOLD_OUT,
  LOOKUP_NOT_FOUND,
  type Participant,
  ParticipantSchema,
  type PriceResponse,
  type Registration,
  type RegistrationLookup,
  RegistrationPriceDraftSchema,
} from '@passada/core/contracts/registrations';
import { maskCpf } from '@passada/core/documents';
import {
  ageGroup,
  formatRegistrationPrice,
  isRegistrationOpen,
  isSenior,
  registrationPrice,
} from '@passada/core/events';
import { centsToReais, formatBRL } from '@passada/core/money';
import { formatPhone } from '@passada/core/phone';
import { escapeXml } from '@passada/core/text';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import {
  badRequest,
  conflict,
  HttpError,
  notFound,
  validationError,
  zodIssues,
} from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import type { UsersService } from '../accounts/users.service.ts';
import type { AppliedCoupon, CouponsService, DraftPricer } from '../coupons/coupons.service.ts';
import {
  type CategoryInfo,
  type EventRow,
  type EventsService,
  termsText,
  termsVersion,
} from '../events/events.service.ts';
import {
  CannotFulfil,
  type ChargePurposeHandler,
  type ChargeRow,
  isUniqueViolation,
  type PaymentsService,
  type RefundRow,
} from '../payments/payments.service.ts';
import { checkinTicketQr } from './checkin-token.ts';
import * as repo from './registrations.repository.ts';
import { participantIdentity } from './registrations-admin.ts';

export interface RegistrationsServiceDeps {
  db: Db;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl' | 'CHECKIN_TOKEN_SECRET'>;
  now: () => Date;
  log: FastifyBaseLogger;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<PaymentsService, 'findByTxid' | 'openDrafts' | 'returnPaid' | 'chargeById' | 'refundOf'>;
  events: Pick<
    EventsService,
    | 'findEventRow'
    | 'findCategories'
    | 'currentPrices'
    | 'findKitSizes'
    | 'reserveKit'
    | 'reservePlaces'
    | 'releasePlaces'
  >;
  users: Pick<UsersService, 'findContact'>;
  coupons: Pick<CouponsService, 'quote' | 'hold' | 'release' | 'confirm' | 'returnUse'>;
}

/** What cancelling a registration did, for the caller's audit line and its refund after commit. */
export interface RegistrationCancellation {
  before: repo.RegistrationRow;
  /** Every registration the charge paid for, now cancelled (on the direct path, just this one). */
  cancelled: repo.RegistrationRow[];
  /** Null for a free registration: nothing was paid, nothing goes back (docs/decisions/0028). */
  refund: RefundRow | null;
}

/** What a registration charge pays for, as the server priced it (stored in charges.draft). */
export interface RegistrationDraft extends Participant {
  items: Array<{ categoryId: number; priceCents: number; lotName?: string | null }>;
  totalCents: number;
  /** The kit size held for the charge and its name; absent when the kit has no shirt sizes. */
  kitSizeId?: number;
  kitSize?: string;
  senior?: boolean;
  /** The termo version and the moment the person accepted it (when the charge was created). */
  termsAcceptedAt?: string;
  /** The discount coupon priced for it; `totalCents` is already net of it. */
  coupon?: AppliedCoupon;
}

/** A participant of a cart, priced: the stored draft and the event's name (for descriptions). */
export interface CartParticipant {
  draft: RegistrationDraft;
  eventName: string;
}

/** Under the QR code: it is the proof at kit pickup, so whoever holds a copy can take the kit. */
const QR_IS_PERSONAL =
  'Este QR code é pessoal e comprova a inscrição na retirada do kit: não o publique nem o compartilhe.';

const PARTICIPANT_TWICE_IN_CART = 'Este participante já está no carrinho para este evento.';
const CART_RACE_COUPON = 'Cupons de corrida valem na inscrição direta; no carrinho, use um cupom da loja.';

interface PricedItem {
  category: CategoryInfo;
  /** The lot's price (or the category's), before the 60+ half price. */
  fullPriceCents: number;
  priceCents: number;
  lotName: string | null;
}

/** The categories a stored registration draft holds (charges.draft of an open registration charge). */
function categoriesOfDraft(draft: unknown): number[] {
  const ids = (draft as { categoria_evento?: unknown }).categoria_evento;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
}

/** Event registrations: the 'registration' purpose of a charge, and the registrations it created. */
export function createRegistrationsService(deps: RegistrationsServiceDeps) {
  /** The registration's signed kit-pickup QR code (docs/decisions/0026). */
  const checkinQr = (row: repo.RegistrationRow) =>
    checkinTicketQr(deps.env.CHECKIN_TOKEN_SECRET, {
      registrationId: row.id,
      eventId: row.eventId,
      nonce: row.checkinNonce,
    });

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
  ): Promise<PriceResponse> {
    const { items, senior } = await priceChoice(deps.db, eventId, [...new Set(categoryIds)], birthDate);
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
      total: centsToReais(totalCents),
      total_centavos: totalCents,
    };
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
    opts: { preview?: boolean } = {},
  ): Promise<{ draft: RegistrationDraft; eventName: string }> {
    const today = dateInTimeZone(deps.now(), STORE_TIME_ZONE);
    if (p.data_nascimento > today)
      throw badRequest('Informe uma data de nascimento válida.', 'validation_error', {
        data_nascimento: 'Informe uma data de nascimento válida.',
      });
    if (inCart.some((d) => d.cpf === p.cpf && d.evento === p.evento))
      throw conflict(PARTICIPANT_TWICE_IN_CART, 'participante_repetido');
    const { event, items, senior } = await priceChoice(
      tx,
      p.evento,
      p.categoria_evento,
      p.data_nascimento,
      tx,
    );
    if (!isRegistrationOpen(event.registrationDeadline, deps.now()))
      throw conflict('Inscrições encerradas', 'inscricoes_encerradas');
    const heldInCart = (categoryId: number) =>
      inCart.filter((d) => d.items.some((i) => i.categoryId === categoryId)).length;
    const soldOut = items.find((i) => i.category.placesLeft - heldInCart(i.category.id) <= 0);
    if (soldOut) throw conflict(`Categoria esgotada: ${soldOut.category.name}.`, 'esgotado');
    const kit = await chosenKitSize(tx, event, p.tamanho_camisa);
    if (kit && kit.left - inCart.filter((d) => d.kitSizeId === kit.id).length <= 0)
      throw conflict(KIT_SIZE_SOLD_OUT, 'tamanho_esgotado');
    if (p.pcd && !event.offersPcd)
      throw badRequest('Este evento não oferece inscrição PCD.', 'pcd_indisponivel', {
        pcd: 'Este evento não oferece inscrição PCD.',
      });
    if (p.termo_versao !== termsVersion(termsText(event)))
      throw conflict(
        'O termo de responsabilidade deste evento foi atualizado. Leia-o e aceite novamente.',
        'termo_atualizado',
      );
    await repo.lockCpf(tx, p.cpf);
    const ids = items.map((i) => i.category.id);
    if ((await repo.takenCategories(tx, p.cpf, ids)).length > 0)
      throw conflict(DUPLICATE_CPF, 'cpf_ja_inscrito');
    // Only this account's own pending charges: a stranger's unpaid charge for this CPF must not lock
    // the person out (the place stays held; if both pay, the later payment is returned). A price
    // preview skips it: the cart's own open Pix, replaced when paying again, must not refuse a coupon.
    const pending = opts.preview ? [] : await pendingCategories(tx, user.id, p.cpf);
    if (ids.some((id) => pending.includes(id)))
      throw conflict(
        'Já existe um pagamento em aberto para este CPF nesta categoria. Conclua-o ou aguarde ele expirar.',
        'pagamento_pendente',
      );
    const price = await withCoupon(
      tx,
      { user, eventId: event.id, cpf: p.cpf, code: p.cupom },
      { items, senior },
    );
    return {
      eventName: event.name,
      draft: {
        ...p,
        items: price.items.map(({ item, priceCents }) => ({
          categoryId: item.category.id,
          priceCents,
          lotName: item.lotName,
        })),
        totalCents: price.totalCents,
        ...(kit ? { kitSizeId: kit.id, kitSize: kit.size } : {}),
        senior: price.senior,
        ...(price.coupon ? { coupon: price.coupon } : {}),
        termsAcceptedAt: deps.now().toISOString(),
      },
    };
  }

  /** Holds the participant's places and kit shirt for the charge (409 when one is gone). */
  async function holdParticipant(tx: Tx, chargeId: number, d: RegistrationDraft): Promise<void> {
    await deps.events.reservePlaces(
      tx,
      chargeId,
      d.items.map((i) => i.categoryId),
    );
    if (d.kitSizeId !== undefined) await deps.events.reserveKit(tx, chargeId, d.kitSizeId);
  }

  /**
   * The registration a paid charge creates for one participant, with its confirmation e-mail; throws
   * CannotFulfil when the CPF took the category meanwhile (then the whole payment is returned).
   */
  async function insertParticipant(
    tx: Tx,
    charge: ChargeRow,
    d: RegistrationDraft,
    orderId: number | null,
  ): Promise<number> {
    await repo.lockCpf(tx, d.cpf);
    const ids = d.items.map((i) => i.categoryId);
    // Another account's charge for this CPF was paid first: this payment cannot become a registration.
    if ((await repo.takenCategories(tx, d.cpf, ids)).length > 0) throw new CannotFulfil(DUPLICATE_CPF);
    const row = await repo
      .insertRegistration(
        tx,
        {
          eventId: d.evento,
          accountUserId: charge.userId,
          chargeId: charge.id,
          orderId,
          fullName: d.nome_completo,
          cpf: d.cpf,
          birthDate: d.data_nascimento,
          gender: d.genero,
          address: d.endereco,
          phone: d.numero_contato,
          email: d.email,
          street: d.street,
          zipCode: d.zip_code,
          state: d.state,
          city: d.city,
          neighborhood: d.neighborhood,
          totalCents: d.totalCents,
          discountCents: d.coupon?.discountCents ?? 0,
          couponCode: d.coupon?.code ?? null,
          kitSize: d.kitSize ?? null,
          team: d.equipe ?? null,
          emergencyName: d.contato_emergencia_nome ?? null,
          emergencyPhone: d.contato_emergencia_telefone ?? null,
          pcd: d.pcd ?? false,
          termsVersion: d.termo_versao ?? null,
          termsAcceptedAt: d.termsAcceptedAt ? new Date(d.termsAcceptedAt) : null,
          seniorDiscount: d.senior ?? false,
          createdAt: deps.now(),
        },
        d.items,
      )
      .catch((err: unknown) => {
        // The unique (category, cpf) index is the final guard against a CPF holding a category twice.
        if (isUniqueViolation(err)) throw new CannotFulfil(DUPLICATE_CPF);
        throw err;
      });
    await deps.jobs.send('mail.registration-confirmation', { registrationId: row.id }, { tx });
    return row.id;
  }

  /**
   * LGPD: only what accounting keeps (event, categories, prices, kit size) survives; name, CPF,
   * birth date, e-mail, phone, address, emergency contact, gender and PCD go.
   */
  const withoutPersonalData = (d: RegistrationDraft) => ({
    evento: d.evento,
    categoria_evento: d.categoria_evento,
    items: d.items,
    totalCents: d.totalCents,
    ...(d.kitSizeId !== undefined ? { kitSizeId: d.kitSizeId, kitSize: d.kitSize } : {}),
    ...(d.senior !== undefined ? { senior: d.senior } : {}),
    ...(d.termo_versao ? { termo_versao: d.termo_versao } : {}),
    ...(d.termsAcceptedAt ? { termsAcceptedAt: d.termsAcceptedAt } : {}),
    // The coupon's use stays on record, without the participant's CPF.
    ...(d.coupon ? { coupon: { ...d.coupon, cpf: undefined } } : {}),
  });

  /** The 'registration' purpose of a charge (docs/architecture.md §5). */
  const purpose: ChargePurposeHandler<RegistrationDraft> = {
    async prepare(tx, { user, draft }) {
      const parsed = ParticipantSchema.safeParse(draft);
      if (!parsed.success) throw validationError(zodIssues(parsed.error));
      const p = parsed.data;
      const prepared = await prepareParticipant(tx, user, p);
      return {
        amountCents: prepared.draft.totalCents,
        description: `Inscrição ${prepared.eventName}`.slice(0, 140),
        draft: prepared.draft,
        billingAddress: {
          street: p.street,
          number: 'S/N',
          neighborhood: p.neighborhood,
          zipcode: p.zip_code,
          city: p.city,
          state: p.state,
        },
      };
    },

    async reserve(tx, chargeId, draft) {
      await holdParticipant(tx, chargeId, draft);
      // The coupon's use is held with the places: of two buyers of its last use, one gets 409.
      if (draft.coupon) await deps.coupons.hold(tx, chargeId, draft.coupon);
    },

    async release(tx, chargeId) {
      await deps.events.releasePlaces(tx, chargeId);
      await deps.coupons.release(tx, chargeId);
    },

    async fulfil(tx, charge: ChargeRow) {
      const d = charge.draft as RegistrationDraft;
      const id = await insertParticipant(tx, charge, d, null);
      if (d.coupon) await deps.coupons.confirm(tx, charge.id);
      return { id };
    },

    async fulfilledBy(db, chargeId) {
      const row = await repo.findByCharge(db, chargeId);
      return row ? { id: row.id } : null;
    },

    // The event's lookup page lists the account's payments for registrations, refunds included.
    payer: (d) =>
      d.email
        ? { name: d.nome_completo, email: d.email, page: `/eventos/register/${d.evento}/ja-me-inscrevi` }
        : undefined,

    withoutPersonalData,
  };

  /**
   * Cancels every registration the charge paid for, in the caller's transaction: each is stamped
   * cancelled (its categories too, so the CPF may register again) and the charge's places and shirts
   * go back. The money is the caller's: the charge is returned whole.
   */
  async function cancelCharge(tx: Tx, chargeId: number, reason: string | null) {
    const cancelled = await repo.cancelByCharge(tx, chargeId, deps.now(), reason);
    await deps.events.releasePlaces(tx, chargeId);
    return cancelled;
  }

  /**
   * Staff cancel a registration bought on the direct path (docs/decisions/0022): in the caller's
   * transaction its charge is returned in full (`returnPaid`), every registration the charge paid for
   * is cancelled with its places and shirt, the coupon's use goes back and the buyer's e-mail is
   * queued. The caller sends the refund after commit. One paid inside an order is cancelled with the
   * order (409 pointing to it).
   */
  async function cancel(tx: Tx, id: number, reason?: string): Promise<RegistrationCancellation> {
    const before = await repo.lockRegistration(tx, id);
    if (!before) throw notFound('Inscrição não encontrada.');
    if (before.cancelledAt) throw conflict('Esta inscrição já foi cancelada.', 'inscricao_cancelada');
    if (before.orderId !== null)
      throw new HttpError(
        409,
        `Esta inscrição foi paga com o pedido nº ${before.orderId}: cancele o pedido, que devolve o pagamento inteiro e cancela as inscrições dele.`,
        'inscricao_de_pedido',
        undefined,
        { pedido_id: before.orderId },
      );
    const refund = await deps.payments.returnPaid(
      tx,
      before.chargeId,
      reason ? `Inscrição cancelada pela loja: ${reason}` : 'Inscrição cancelada pela loja.',
    );
    const cancelled = await cancelCharge(tx, before.chargeId, reason ?? null);
    // The money goes back, so the coupon's use does too (its per-CPF limits count it no more).
    await deps.coupons.returnUse(tx, before.chargeId);
    for (const r of cancelled)
      await deps.jobs.send('mail.registration-cancelled', { registrationId: r.id }, { tx });
    return { before, cancelled, refund };
  }

  /**
   * The e-mail telling people a registration was cancelled: the participant, and the account holder
   * when someone else. On the direct path it says how the money comes back; a registration cancelled
   * with its order only tells the participant (the buyer gets the order's e-mail with the refund).
   */
  async function sendCancellation(registrationId: number): Promise<void> {
    const registration = await repo.findById(deps.db, registrationId);
    const event = registration ? await deps.events.findEventRow(registration.eventId) : undefined;
    if (!registration?.cancelledAt || !event) return;
    const account =
      registration.accountUserId === null ? null : await deps.users.findContact(registration.accountUserId);
    const [charge, refund] = await Promise.all([
      deps.payments.chargeById(registration.chargeId),
      deps.payments.refundOf(registration.chargeId),
    ]);
    const inOrder = registration.orderId !== null;
    const amount = formatBRL(refund?.amountCents ?? charge?.amountCents ?? registration.totalCents);
    // Nothing was paid for it (a free registration, or a cart of total zero): nothing to return.
    const nothingPaid = charge?.amountCents === 0;
    const money = nothingPaid
      ? ['Esta inscrição era gratuita: não há valor a devolver.']
      : inOrder
        ? [`O pagamento do pedido nº ${registration.orderId} será devolvido a quem o pagou.`]
        : charge?.method === 'cartao'
          ? [
              `Pedimos à operadora o estorno do valor integral de ${amount} no mesmo cartão de crédito.`,
              'O estorno aparece na fatura do cartão em até duas faturas, conforme o banco emissor.',
            ]
          : [
              `Pedimos a devolução do valor integral de ${amount} por Pix, para a conta de onde ele saiu.`,
              'A devolução costuma chegar em poucos minutos e pode levar até 1 dia útil, conforme o seu banco.',
            ];
    const details = [
      `Evento: ${event.name}`,
      `Data: ${formatIsoDateBR(event.startDate)} às ${event.time}`,
      `Participante: ${registration.fullName} (CPF ${maskCpf(registration.cpf)})`,
      `Inscrição nº ${registration.id}`,
      ...(registration.cancelReason ? [`Motivo: ${registration.cancelReason}`] : []),
      '',
      'A vaga e a camisa do kit foram liberadas, e o QR code desta inscrição não vale mais para a retirada do kit.',
      ...money,
      '',
      `Dúvidas? Responda a este e-mail. Acompanhe em ${deps.env.publicUrl}/eventos/register/${event.id}/ja-me-inscrevi.`,
      '',
      companyIdentityLine(),
    ];
    const subject = `${deps.env.STORE_NAME}: inscrição nº ${registration.id} cancelada`;
    const recipients = [
      {
        to: registration.email,
        text: [
          `Olá, ${registration.fullName}!`,
          '',
          `Sua inscrição em ${event.name} foi cancelada.`,
          '',
          ...details,
        ],
      },
    ];
    if (!inOrder && account && account.email.toLowerCase() !== registration.email.toLowerCase())
      recipients.push({
        to: account.email,
        text: [
          `Olá, ${account.fullName}!`,
          '',
          `A inscrição que você fez para ${registration.fullName} em ${event.name} foi cancelada.`,
          '',
          ...details,
        ],
      });
    // In an order, the account holder paid and gets the order's own e-mail; only another participant is told here.
    const to =
      inOrder && account && account.email.toLowerCase() === registration.email.toLowerCase()
        ? []
        : recipients;
    const results = await Promise.allSettled(
      to.map((r) => deps.mail.send({ to: r.to, subject, text: r.text.join('\n') })),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration cancellation e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }

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
      for (const [index, p] of participants.entries()) {
        try {
          // Race coupons stay on the direct registration: the cart's one coupon is the shop's.
          if (p.cupom) throw badRequest(CART_RACE_COUPON, 'cupom_nao_aplicavel', { cupom: CART_RACE_COUPON });
          prepared.push(
            await prepareParticipant(
              tx,
              user,
              p,
              prepared.map((x) => x.draft),
              opts,
            ),
          );
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
      return prepared;
    },
    /** Places and shirts of every participant, in the charge's transaction. */
    async hold(tx: Tx, chargeId: number, drafts: readonly RegistrationDraft[]): Promise<void> {
      for (const d of drafts) await holdParticipant(tx, chargeId, d);
    },
    /** Gives back every place and shirt the charge still holds. */
    release: (tx: Tx, chargeId: number) => deps.events.releasePlaces(tx, chargeId),
    /** One registration per participant, linked to the order; CannotFulfil for any of them fails all. */
    async fulfil(tx: Tx, charge: ChargeRow, drafts: readonly RegistrationDraft[], orderId: number) {
      const ids: number[] = [];
      for (const d of drafts) ids.push(await insertParticipant(tx, charge, d, orderId));
      return ids;
    },
    withoutPersonalData,
    /**
     * Cancels every registration the order's charge paid for and gives back their places and
     * shirts, in the caller's transaction; participants who are not the buyer get an e-mail.
     */
    async cancel(tx: Tx, chargeId: number, reason: string | null): Promise<number[]> {
      const cancelled = await cancelCharge(tx, chargeId, reason);
      for (const r of cancelled)
        await deps.jobs.send('mail.registration-cancelled', { registrationId: r.id }, { tx });
      return cancelled.map((r) => r.id);
    },
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

  /**
   * The confirmation e-mail job: the participant, and the account holder when they are someone else.
   * Every recipient is tried; a failure makes the job run again later.
   */
  async function sendConfirmation(registrationId: number): Promise<void> {
    const registration = await repo.findById(deps.db, registrationId);
    const event = registration ? await deps.events.findEventRow(registration.eventId) : undefined;
    if (!registration || !event) return;
    const account =
      registration.accountUserId === null ? null : await deps.users.findContact(registration.accountUserId);
    const categories = await repo.categoriesOf(deps.db, registration.id);
    const lines = [
      `Evento: ${event.name}`,
      `Data: ${formatIsoDateBR(event.startDate)} às ${event.time}`,
      `Participante: ${registration.fullName} (CPF ${maskCpf(registration.cpf)})`,
      `Categorias: ${categories.map((c) => c.name).join(', ')}`,
      ...(registration.couponCode
        ? [`Desconto (cupom ${registration.couponCode}): −${formatBRL(registration.discountCents)}`]
        : []),
      `Valor: ${formatRegistrationPrice(registration.totalCents)}`,
      `Inscrição nº ${registration.id}`,
      ...(registration.kitSize ? [`Camisa: ${registration.kitSize}`] : []),
      ...(registration.seniorDiscount
        ? ['Meia-entrada (60+): apresente um documento com foto na retirada do kit.']
        : []),
      ...(event.kitPickupPlace ? [`Retirada do kit: ${event.kitPickupPlace}`] : []),
      ...event.kitPickupHours
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ];
    const subject = `Inscrição confirmada: ${event.name}`;
    const recipients = [
      {
        to: registration.email,
        text: [`Olá, ${registration.fullName}!`, '', 'Sua inscrição está confirmada.', '', ...lines],
      },
    ];
    if (account && account.email.toLowerCase() !== registration.email.toLowerCase())
      recipients.push({
        to: account.email,
        text: [
          `Olá, ${account.fullName}!`,
          '',
          `A inscrição que você fez para ${registration.fullName} está confirmada.`,
          '',
          ...lines,
        ],
      });
    // The signed QR staff scan at kit pickup; without a camera they search the name and check a document.
    // An attachment shown by Content-ID: Gmail and others do not show `data:` images.
    const qr = await checkinQr(registration);
    const ticket = {
      filename: `inscricao-${registration.id}-qrcode.png`,
      content: Buffer.from(qr.slice(qr.indexOf(',') + 1), 'base64'),
      contentType: 'image/png',
      cid: `qrcode-inscricao-${registration.id}@passada`,
    };
    const html = (text: string[]) =>
      [
        ...text.map((line) => `<p style="margin:0 0 8px;">${escapeXml(line) || '&nbsp;'}</p>`),
        `<p>Apresente este QR code na retirada do kit:</p><p><img src="cid:${ticket.cid}" alt="QR code da inscrição nº ${registration.id}" width="200" height="200" style="background:#ffffff;padding:8px;"></p>`,
        `<p>${escapeXml(QR_IS_PERSONAL)}</p>`,
      ].join('\n');
    const results = await Promise.allSettled(
      recipients.map((r) =>
        deps.mail.send({
          to: r.to,
          subject,
          text: [...r.text, '', `O QR code da retirada do kit segue anexo. ${QR_IS_PERSONAL}`].join('\n'),
          html: html(r.text),
          attachments: [ticket],
        }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }

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
    const categories = await repo.categoriesOf(deps.db, row.id);
    const event = await deps.events.findEventRow(row.eventId);
    return {
      id: row.id,
      nome_completo: row.fullName,
      email: row.email,
      numero_contato: formatPhone(row.phone),
      evento_detalhes: { id: row.eventId, nome_evento: row.eventName },
      categoria_evento_detalhes: categories.map((c) => ({ id: c.id, nome_categoria: c.name })),
      endereco: row.address,
      tamanho_camisa: row.kitSize,
      equipe: row.team,
      faixa_etaria: ageGroup(row.birthDate, event?.startDate ?? row.birthDate),
      meia_entrada: row.seniorDiscount,
      pcd: row.pcd,
      kit_local_retirada: event?.kitPickupPlace ?? '',
      kit_horarios_retirada: event?.kitPickupHours ?? '',
      // A cancelled registration's QR would only be refused at kit pickup.
      ...(row.cancelledAt ? {} : { qr_code: await checkinQr(row) }),
      cancelada_em: row.cancelledAt?.toISOString() ?? null,
      total: centsToReais(row.totalCents),
      ...(row.couponCode ? { cupom: row.couponCode, desconto: centsToReais(row.discountCents) } : {}),
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

  return {
    purpose,
    cart,
    quote,
    pricePreview,
    registrationForCharge,
    lookup,
    sendConfirmation,
    cancel,
    sendCancellation,
  };
}

export type RegistrationsService = ReturnType<typeof createRegistrationsService>;
export type RegistrationsCart = RegistrationsService['cart'];
