import {
  type ChangeQuote,
  RegistrationChangesRequestSchema,
  type RegistrationChangesResult,
  type RegistrationOperationWire,
} from '@passada/core/contracts/after-sale';
import { centsToReais, reaisToCents } from '@passada/core/money';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { registrationChanges } from '../../db/schema/index.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, HttpError } from '../../plugins/errors.ts';
import { CannotFulfil, type ChargeRow } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import { billingAddressOf } from './holder.ts';
import type { ParticipantLinks } from './participant-link.ts';
import type { Change } from './registration-change.ts';
import {
  type ChangeOp,
  checkShape,
  splitList,
  TRANSFER_WITH_PAYMENT,
  type TransferOp,
} from './registration-change-list-shape.ts';
import type { ChangeManager } from './registration-change-manager.ts';
import { paidParts } from './registration-paid.ts';
import type { RunnerChanges } from './registration-runner.ts';
import { type Holder, holderRegistration, type Transfer } from './registration-transfer.ts';
import * as repo from './registrations.repository.ts';
import type {
  ChangeListDraft,
  RegistrationDraft,
  RegistrationsServiceDeps,
} from './registrations-context.ts';

/** What a list of changes costs or returns, reckoned once for the whole list. */
interface ListMoney {
  feeCents: number;
  differenceCents: number;
  dueCents: number;
  backCents: number;
  keptCents: number;
}

const GONE = 'Estas alterações não podem mais ser concluídas: a inscrição mudou desde que você as pediu.';

/** Thrown to undo a list that was only priced (the quote, the charge's prepare). */
class Priced {
  constructor(readonly value: { money: ListMoney; prices: ChangeListDraft['prices'] }) {}
}

/**
 * A list of changes to a registration (distance, shirt size) checked in order by each single change's
 * steps, in one transaction under the registration's row lock, with its money reckoned once
 * (docs/decisions/0056, later): the fees and differences of its distances summed, one charge for a
 * positive total (the list applied when it is paid, every rule checked again), one refund for a
 * negative one when the organiser returns differences, never above what the categories left were paid
 * nor what the registration's charge has left. Each operation writes its history line and queues its
 * e-mail; the list's money is on its last change of distance.
 */
export function createChangeList(
  deps: RegistrationsServiceDeps,
  steps: {
    change: Change;
    links: ParticipantLinks;
    manager: ChangeManager;
    transfer: Transfer;
    runner: Pick<RunnerChanges, 'cancelByRunner' | 'cancellation'>;
  },
) {
  const { rulesFor, quoteFor, priceChange, moveCategory, moveSize } = steps.change.parts;

  /** The registration's category on the day of `to` (the one a change of distance to it replaces). */
  async function sameDay(tx: Tx, registrationId: number, to: number): Promise<number> {
    const held = await repo.categoriesOf(tx, registrationId);
    const infos = await deps.events.findCategories([to, ...held.map((c) => c.id)], tx);
    const day = infos.find((c) => c.id === to)?.dayId;
    const same = held.filter((c) => infos.find((x) => x.id === c.id)?.dayId === day);
    if (day === undefined || same.length !== 1)
      throw badRequest('Esta distância não é de um dia desta inscrição.', 'categoria_invalida', {
        categoria_id: 'Esta distância não é de um dia desta inscrição.',
      });
    return same[0]!.id;
  }

  /**
   * Applies the list to `row` (locked). `paid`: the list a charge paid for, applied at its payment —
   * the places it holds are the new ones, the prices the ones it paid; the organiser's switches and
   * deadlines were asked when it was made, every rule of a new sale is asked again.
   */
  async function run(
    tx: Tx,
    row: repo.RegistrationRow,
    by: Holder['by'],
    userId: number | null,
    operations: readonly ChangeOp[],
    paid?: { chargeId: number; list: ChangeListDraft },
  ) {
    const moves: { from: number; to: number }[] = [];
    let [feeCents, differenceCents, capCents, refunds] = [0, 0, 0, false];
    let lastDistance: number | null = null;
    const prices: ChangeListDraft['prices'] = [];
    const own = (await paidParts(deps, tx, row)).find((p) => p.own)?.leftCents ?? 0;
    for (const [i, op] of operations.entries()) {
      const which = operations.length > 1 ? `Alteração ${i + 1}: ` : '';
      const refuse = (err: unknown): never => {
        if (!(err instanceof HttpError) || !which) throw err;
        throw new HttpError(err.statusCode, `${which}${err.detail}`, err.code, err.errors, err.extra);
      };
      if (op.tipo === 'camiseta') {
        const { event, reason } = await rulesFor(tx, row, 'tamanho');
        if (reason && !paid) throw conflict(`${which}${reason}`, 'troca_nao_permitida');
        await moveSize(tx, row, event, op.tamanho, by, paid ? { held: true } : undefined).catch(refuse);
      } else {
        const from = op.de ?? (await sameDay(tx, row.id, op.categoria_id));
        moves.push({ from, to: op.categoria_id });
        checkShape(operations.slice(0, i + 1), moves);
        const priced = paid
          ? await pricedAsPaid(tx, row, from, op.categoria_id, paid.list)
          : await quoteFor(tx, row, from, op.categoria_id);
        if (!priced.quote.permitido || !priced.priced)
          throw conflict(`${which}${priced.quote.motivo ?? ''}`, 'troca_nao_permitida');
        capCents += await steps.manager.paidFor(tx, row, from);
        await moveCategory(
          tx,
          row,
          priced.event,
          { from, to: op.categoria_id, newItem: priced.priced.newItem, userId },
          paid ? { held: true } : undefined,
        ).catch(refuse);
        feeCents += priced.rules.categoryChangeFeeCents;
        differenceCents += priced.priced.differenceCents;
        refunds = priced.rules.categoryChangeRefundsDifference;
        prices.push({
          categoryId: op.categoria_id,
          priceCents: priced.priced.newItem.priceCents,
          lotName: priced.priced.newItem.lotName,
        });
        const change = await afterSale.insertChange(tx, {
          registrationId: row.id,
          kind: 'troca_distancia',
          actor: by,
          detail: {
            de: from,
            para: op.categoria_id,
            para_nome: priced.priced.newItem.category.name,
            diferenca_cents: priced.priced.differenceCents,
          },
          feeCents: 0,
          refundCents: 0,
          createdAt: deps.now(),
        });
        lastDistance = change.id;
        await deps.jobs.send('mail.registration-changed', { changeId: change.id }, { tx });
      }
      row = (await repo.findById(tx, row.id))!;
    }
    checkShape(operations, moves);
    const dueCents = Math.max(0, feeCents + differenceCents);
    // A cheaper list: the difference less the fees, never above what the categories left were paid
    // (their coupon's share out) nor what the registration's own charge has left.
    const returnable =
      dueCents > 0 || !refunds || differenceCents + feeCents > 0
        ? 0
        : Math.min(-differenceCents, capCents, own);
    const keptCents = Math.min(feeCents, returnable);
    const money = { feeCents, differenceCents, dueCents, backCents: returnable - keptCents, keptCents };
    return { row, money, prices, lastDistance };
  }

  /** A paid list's distance priced as the charge paid it, its place held by the charge. */
  async function pricedAsPaid(
    tx: Tx,
    row: repo.RegistrationRow,
    from: number,
    to: number,
    list: ChangeListDraft,
  ) {
    const { event, rules } = await rulesFor(tx, row, 'distancia');
    const priced = await priceChange(tx, row, from, to);
    const paidPrice = list.prices.find((p) => p.categoryId === to);
    if (!paidPrice) throw new CannotFulfil(GONE);
    const newItem = { ...priced.newItem, priceCents: paidPrice.priceCents, lotName: paidPrice.lotName };
    const before = priced.newItem.priceCents - priced.differenceCents;
    return {
      quote: { permitido: true, motivo: null } as Pick<ChangeQuote, 'permitido' | 'motivo'>,
      event,
      rules,
      priced: { ...priced, newItem, differenceCents: newItem.priceCents - before },
    };
  }

  /**
   * The list priced in a transaction that is then undone: every rule asked (a transfer's too, after
   * the changes), nothing kept.
   */
  async function price(
    tx: Tx,
    row: repo.RegistrationRow,
    holder: Holder,
    userId: number | null,
    ops: readonly ChangeOp[],
    transfer?: TransferOp,
  ) {
    try {
      await tx.transaction(async (sp) => {
        const done = await run(sp, row, holder.by, userId, ops);
        if (transfer && done.money.dueCents > 0)
          throw conflict(TRANSFER_WITH_PAYMENT, 'transferencia_com_pagamento');
        if (transfer) await steps.transfer.requestIn(sp, holder, row.id, transfer, 'cotacao');
        throw new Priced({ money: done.money, prices: done.prices });
      });
    } catch (err) {
      if (err instanceof Priced) return err.value;
      throw err;
    }
    throw new Error('unreachable');
  }

  const quoteOf = (money: ListMoney): ChangeQuote => ({
    permitido: true,
    motivo: null,
    taxa: centsToReais(money.feeCents),
    diferenca: centsToReais(money.differenceCents),
    a_pagar: centsToReais(money.dueCents),
    a_devolver: centsToReais(money.backCents),
  });

  /**
   * POST …/alteracoes/cotacao/: what the list costs or returns now, every rule asked as the
   * confirmation will ask it; a refusal is `permitido: false` with its reason. A cancellation alone
   * answers its own quote's amount.
   */
  async function quote(
    holder: Holder,
    id: number,
    ops: readonly RegistrationOperationWire[],
  ): Promise<ChangeQuote> {
    const refused = (motivo: string): ChangeQuote => ({
      permitido: false,
      motivo,
      taxa: 0,
      diferenca: 0,
      a_pagar: 0,
      a_devolver: 0,
    });
    try {
      const list = splitList(ops);
      if (list.cancel) {
        const q = await steps.runner.cancellation(holder, id);
        if (!q.permitido) return refused(q.motivo ?? '');
        return { ...refused(''), permitido: true, motivo: null, a_devolver: q.valor_devolvido };
      }
      return await deps.db.transaction(async (tx) => {
        const row = await holderRegistration(tx, holder, id, 'lock');
        return quoteOf((await price(tx, row, holder, userOf(holder), list.changes, list.transfer)).money);
      });
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 409) throw err;
      return refused(err.detail);
    }
  }

  const userOf = (holder: Holder) => (holder.by === 'comprador' ? holder.user.id : null);

  const resultOf = async (id: number, extra: Partial<RegistrationChangesResult>) => {
    const row = (await repo.findById(deps.db, id))!;
    const categories = await repo.categoriesOf(deps.db, id);
    return {
      inscricao: id,
      categoria_evento: categories.map((c) => c.id),
      categorias: categories.map((c) => c.name),
      tamanho_camisa: row.kitSize,
      a_devolver: 0,
      cancelada_em: row.cancelledAt?.toISOString() ?? null,
      ...extra,
    };
  };

  /**
   * POST …/alteracoes/: the list applied at once when nothing is to pay; what comes back must be what
   * was shown (409 `valor_divergente`) and is refunded once, after commit. Something to pay answers 409
   * `pagamento_necessario` (the list is paid by a `registration` charge with an `alteracoes` draft). A
   * transfer is asked after the other changes, in the same transaction, by its own rules; a
   * cancellation alone is the runner's cancellation.
   */
  async function apply(
    holder: Holder,
    id: number,
    ops: readonly RegistrationOperationWire[],
    shown: { a_devolver?: number | undefined },
  ): Promise<RegistrationChangesResult> {
    const list = splitList(ops);
    if (list.cancel) {
      const done = await steps.runner.cancelByRunner(holder, id, list.cancel.valor_devolvido);
      return resultOf(id, { a_devolver: done.valor_devolvido });
    }
    const token = steps.transfer.newToken();
    const done = await deps.db.transaction(async (tx) => {
      const locked = await holderRegistration(tx, holder, id, 'lock');
      const { row, money, lastDistance } = await run(tx, locked, holder.by, userOf(holder), list.changes);
      if (money.dueCents > 0 && list.transfer)
        throw conflict(TRANSFER_WITH_PAYMENT, 'transferencia_com_pagamento');
      if (money.dueCents > 0)
        throw new HttpError(
          409,
          'Estas alterações têm valor a pagar: pague-o para concluí-las.',
          'pagamento_necessario',
          undefined,
          { a_pagar: centsToReais(money.dueCents) },
        );
      if (money.backCents !== reaisToCents(shown.a_devolver ?? 0))
        throw new HttpError(
          409,
          'O valor mudou desde que você abriu esta página. Confira o novo valor e confirme de novo.',
          'valor_divergente',
          undefined,
          { a_devolver: centsToReais(money.backCents) },
        );
      const refund =
        money.backCents > 0
          ? await deps.payments.refundPart(tx, row.chargeId, {
              refundId: `alt${id}x${deps.now().getTime()}`.slice(0, 35),
              amountCents: money.backCents,
              reason: 'Alterações da inscrição: diferença devolvida.',
            })
          : null;
      if (lastDistance !== null)
        await tx
          .update(registrationChanges)
          .set({ feeCents: money.keptCents, refundCents: refund?.amountCents ?? 0 })
          .where(eq(registrationChanges.id, lastDistance));
      // The transfer last: the new runner receives the registration as the list left it.
      const transfer =
        list.transfer && (await steps.transfer.requestIn(tx, holder, id, list.transfer, token));
      return { refund, transfer };
    });
    if (done.refund) await deps.payments.sendRefund(done.refund);
    if (done.transfer) await steps.transfer.announce(done.transfer, token);
    return resultOf(id, {
      a_devolver: centsToReais(done.refund?.amountCents ?? 0),
      ...(done.transfer ? { transferencia: await steps.transfer.status(holder, id) } : {}),
    });
  }

  /**
   * The registration purpose's prepare for a list with something to pay (`{ alteracoes: { inscricao |
   * link, operacoes } }`): the list priced under every rule and undone; the charge pays its total.
   */
  async function prepare(tx: Tx, input: { user: AuthUser; draft: unknown }) {
    const part = (input.draft as { alteracoes: { inscricao?: unknown; link?: unknown; operacoes?: unknown } })
      .alteracoes;
    const { holder, id } = await steps.links.holderOfDraft(tx, input.user, part);
    const ops = RegistrationChangesRequestSchema.safeParse({ operacoes: part.operacoes });
    if (!Number.isInteger(id) || id <= 0 || !ops.success)
      throw badRequest('Escolha as alterações.', 'validation_error', { operacoes: 'Escolha as alterações.' });
    const wanted = splitList(ops.data.operacoes);
    if (wanted.cancel || wanted.transfer)
      throw conflict(
        wanted.transfer ? TRANSFER_WITH_PAYMENT : 'Um cancelamento não tem valor a pagar.',
        wanted.transfer ? 'transferencia_com_pagamento' : 'cancelamento_sozinho',
      );
    const row = await holderRegistration(tx, holder, id, 'lock');
    const event = await deps.events.findEventRow(row.eventId, tx);
    const { money, prices } = await price(tx, row, holder, input.user.id, wanted.changes);
    if (money.dueCents <= 0)
      throw conflict(
        'Estas alterações não têm valor a pagar: confirme-as sem pagamento.',
        'sem_valor_a_pagar',
      );
    const first = wanted.changes.find((op) => op.tipo === 'distancia')!;
    const categories = await repo.categoriesOf(tx, id);
    const list: ChangeListDraft = {
      operations: wanted.changes,
      categoryIds: categories.map((c) => c.id),
      kitSize: row.kitSize,
      prices,
    };
    const draft = {
      evento: row.eventId,
      categoria_evento: prices.map((p) => p.categoryId),
      items: prices.map((p) => ({ categoryId: p.categoryId, priceCents: p.priceCents, lotName: p.lotName })),
      totalCents: money.dueCents,
      email: row.email,
      nome_completo: row.fullName,
      change: {
        registrationId: row.id,
        from: first.de ?? (await sameDay(tx, id, first.categoria_id)),
        to: first.categoria_id,
        feeCents: money.feeCents,
        differenceCents: money.differenceCents,
        by: holder.by,
        list,
      },
    } as unknown as RegistrationDraft;
    return {
      amountCents: money.dueCents,
      description: `Alterações da inscrição ${event?.name ?? ''}`.slice(0, 140),
      draft,
      billingAddress: billingAddressOf(row),
    };
  }

  /**
   * Holds the list's new places and its new shirt for its charge until it is paid, expires or is
   * cancelled (409 `esgotado` / `tamanho_esgotado` when the last one went meanwhile), as a new sale holds
   * them: the payment never lands on a size sold out while the Pix was open.
   */
  async function reserve(tx: Tx, chargeId: number, draft: RegistrationDraft) {
    const part = draft.change;
    const row = part && (await repo.findById(tx, part.registrationId));
    if (!part?.list || !row || row.cancelledAt) throw conflict(GONE, 'troca_encerrada');
    for (const p of part.list.prices) await steps.manager.takePlace(tx, chargeId, row, p.categoryId);
    for (const op of part.list.operations)
      if (op.tipo === 'camiseta') await deps.events.reserveKit(tx, chargeId, op.tamanho);
  }

  /**
   * The paid list, in the confirming transaction: the registration must stand as it was when the
   * charge was made; the list is applied again through every step (the places held by the charge move
   * to the registration's), its money line says what the charge paid. Anything refused: the payment
   * is returned whole with the reason.
   */
  async function fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }> {
    const part = (charge.draft as RegistrationDraft).change;
    if (!part?.list) throw new CannotFulfil(GONE);
    const row = await repo.lockRegistration(tx, part.registrationId);
    if (!row || row.cancelledAt) throw new CannotFulfil(GONE);
    const held = (await repo.categoriesOf(tx, row.id)).map((c) => c.id);
    const same =
      held.length === part.list.categoryIds.length && held.every((c) => part.list!.categoryIds.includes(c));
    if (!same || row.kitSize !== part.list.kitSize) throw new CannotFulfil(GONE);
    try {
      const done = await tx.transaction((sp) =>
        run(sp, row, part.by ?? 'comprador', charge.userId, part.list!.operations, {
          chargeId: charge.id,
          list: part.list!,
        }),
      );
      if (done.money.dueCents !== charge.amountCents) throw new CannotFulfil(GONE);
      await deps.events.moveReservations(tx, charge.id, row.chargeId);
      const [line] = await tx
        .select()
        .from(registrationChanges)
        .where(eq(registrationChanges.id, done.lastDistance!));
      await tx
        .update(registrationChanges)
        .set({
          feeCents: charge.amountCents,
          detail: {
            ...(line!.detail as object),
            cobranca: charge.id,
            lista_diferenca_cents: done.money.differenceCents,
          },
        })
        .where(eq(registrationChanges.id, done.lastDistance!));
    } catch (err) {
      if (err instanceof HttpError) throw new CannotFulfil(err.detail);
      throw err;
    }
    return { id: row.id };
  }

  return { quote, apply, prepare, reserve, fulfil };
}

export type ChangeList = ReturnType<typeof createChangeList>;

/** A registration draft that pays for a list of changes (`alteracoes` on the wire). */
export const isChangeListDraft = (draft: unknown): boolean =>
  typeof (draft as { alteracoes?: unknown } | null)?.alteracoes === 'object';
