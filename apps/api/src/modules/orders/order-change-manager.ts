import { addDays, dateInTimeZone, formatIsoDateBR, STORE_TIME_ZONE } from '@passada/core/calendar';
import { type OrderChangeQuote, WITHDRAWAL_DAYS } from '@passada/core/contracts/returns';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { CouponsService } from '../coupons/coupons.service.ts';
import type { PaymentsService, RefundRow } from '../payments/payments.service.ts';
import type { RegistrationsAdmin } from '../registrations/index.ts';
import type { RegistrationsCart } from '../registrations/registrations.service.ts';
import { type OrderChange, refundDue, unitsValue } from './order-change.ts';
import { applySwaps, checkSwap, swapText, type VariantSwap } from './order-variant-swap.ts';
import * as orderRepo from './orders.repository.ts';
import * as repo from './returns.repository.ts';

/**
 * The one door for a change to a sold order before it ships (docs/decisions/0065): a list of operations
 * (units of lines taken off, registrations of the order withdrawn), checked whole, then written once: one
 * request row, the units back on the shelf, one refund, one fiscal call, one e-mail. The buyer's
 * withdrawal (`desistencia`), the buyer's and staff's lists of changes (`alteracoes`) and the staff
 * cancellation all come through here, so a rule written here holds on each of them; the steps it is made
 * of are the shared ones of `order-change.ts` (money, fiscal, e-mail).
 */

/** Not shipped yet: the order may still change (docs/decisions/0036). */
export const NOT_SHIPPED = new Set(['pago', 'em separação']);

const storeDay = (at: Date) => dateInTimeZone(at, STORE_TIME_ZONE);

/** Our refund id for a request: one per request, so asking again never returns twice. */
export const returnRefundId = (returnId: number, step = '') => `ret${returnId}${step}`;

type SwapLine = { item_id: number; quantidade: number; cor_id: number; tamanho_id: number };

/** What a change does: without `itens`, `trocas` and `inscricoes`, takes everything left off. */
export interface OrderChangeList {
  itens?: Array<{ item_id: number; quantidade: number }> | undefined;
  trocas?: SwapLine[] | undefined;
  inscricoes?: number[] | undefined;
  motivo?: string | undefined;
}

/** The list's three parts, each present; repeats are caught by `plan`. */
function normalized(list: OrderChangeList) {
  return { itens: list.itens ?? [], trocas: list.trocas ?? [], inscricoes: list.inscricoes ?? [] };
}

const repeated = () =>
  badRequest('Cada item e cada inscrição aparecem uma vez só na lista.', 'alteracao_repetida');

/** Who asks: the buyer (the law's withdrawal rules) or staff (the shop's own call, audited by the route). */
export type OrderChangeActor = { kind: 'comprador' } | { kind: 'loja'; name: string };

export interface OrderChangeManagerDeps {
  db: Db;
  now: () => Date;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<PaymentsService, 'refundPart' | 'returnPaid' | 'sendRefund' | 'paidAndRefunded'>;
  catalog: Pick<CatalogService, 'restock' | 'releaseStock' | 'reserveStock' | 'getProduct'>;
  coupons: Pick<CouponsService, 'returnUse'>;
  registrations: Pick<RegistrationsCart, 'ofOrders' | 'cancel' | 'cancelParticipant'>;
  kitPickedUp: RegistrationsAdmin['kitPickedUp'];
  /** Whether the order's NF-e can still be cancelled and issued again (fiscal, in the caller's transaction). */
  notaReplaceable: (tx: Tx, orderId: number) => Promise<boolean>;
  change: Pick<OrderChange, 'announce' | 'fiscalJobs'>;
}

/** Thrown to undo a quote's trial run; carries what the run found. */
class QuoteOnly<T> extends Error {
  constructor(readonly result: T) {
    super('quote');
  }
}

export function createOrderChangeManager(deps: OrderChangeManagerDeps) {
  /**
   * The order's version: every change to it writes a status row or a request row, never removes one, so
   * their count moves with every change. A list sent with an older one is refused (`pedido_alterado`),
   * so two people changing one order never overwrite each other silently.
   */
  const versionOf = (db: Db | Tx, orderId: number) => orderRepo.orderVersion(db, orderId);

  async function checkVersion(tx: Tx, orderId: number, versao: number | undefined) {
    if (versao === undefined) return;
    if ((await versionOf(tx, orderId)) !== versao)
      throw conflict(
        'Este pedido mudou desde que você o abriu: confira o pedido atualizado e tente de novo.',
        'pedido_alterado',
      );
  }

  /** What is left of each line once the requests staff did not refuse are taken off. */
  async function remaining(db: Db | Tx, orderId: number) {
    const items = await orderRepo.findItems(db, [orderId]);
    const asked = await repo.unitsAskedBack(db, orderId);
    return items.map((item) => ({ item, left: item.quantity - (asked.get(item.id) ?? 0) }));
  }

  /**
   * The shared end of an order that keeps nothing (every path that empties or cancels it): the whole
   * rest of the charge back (shipping and card interest included: CDC art. 49 "os valores eventualmente
   * pagos, a qualquer título"), the units still held back on the shelf, the coupon's use returned, every
   * registration it paid for cancelled (with what their own transfers and changes paid), the order
   * cancelled with its history row, its NF-e cancelled and its label too. A kit handed out refuses the
   * whole change (checked last, after the registrations' rows were written, so a check-in running
   * meanwhile has committed and is seen, or waits and then refuses).
   */
  async function cancelWhole(
    tx: Tx,
    order: orderRepo.OrderRow,
    input: {
      /** The refund's and the registrations' reason. */
      why: string;
      /** The registrations' cancellation note, and the order's history note. */
      note: string | null;
      historyNote: string | null;
      staffName: string | null;
      kitRefusal: string;
    },
  ): Promise<{
    refund: RefundRow | null;
    registrationRefunds: RefundRow[];
    cancelledRegistrations: number[];
  }> {
    const now = deps.now();
    const refund = await deps.payments.returnPaid(tx, order.chargeId, input.why);
    await deps.catalog.releaseStock(tx, order.chargeId, now, { reason: 'cancelamento', orderId: order.id });
    await deps.coupons.returnUse(tx, order.chargeId);
    const cancelled = await deps.registrations.cancel(tx, order.chargeId, input.note, input.why);
    await orderRepo.updateOrder(tx, order.id, { status: 'cancelado' });
    await orderRepo.insertStatusChange(tx, {
      orderId: order.id,
      status: 'cancelado',
      staffName: input.staffName,
      trackingCode: null,
      note: input.historyNote,
      at: now,
    });
    await deps.change.fiscalJobs(tx, { kind: 'cancel', orderId: order.id });
    await deps.jobs.send('shipping.cancel-label', { orderId: order.id }, { tx });
    const registrations = (await deps.registrations.ofOrders([order.id], tx)).get(order.id) ?? [];
    await deps.kitPickedUp(
      tx,
      registrations.map((r) => r.id),
      input.kitRefusal,
    );
    return { refund, registrationRefunds: cancelled.refunds, cancelledRegistrations: cancelled.ids };
  }

  /**
   * The whole list checked against what is left before anything is written: the order not shipped nor
   * cancelled, each line and registration of this order and changed once, the units removed and swapped
   * within what is left of the line, the swaps' combinations real. 4xx naming the first that fails.
   */
  async function plan(tx: Tx, order: orderRepo.OrderRow, list: OrderChangeList, actor: OrderChangeActor) {
    if (!NOT_SHIPPED.has(order.status))
      throw conflict(
        order.status === 'cancelado'
          ? 'Este pedido já foi cancelado.'
          : order.status === 'enviado' || order.status === 'entregue'
            ? 'O pedido já foi enviado: depois de recebê-lo, peça a devolução nesta página.'
            : 'Este pedido ainda não foi pago.',
        'desistencia_indisponivel',
      );
    const left = await remaining(tx, order.id);
    const registrations = ((await deps.registrations.ofOrders([order.id], tx)).get(order.id) ?? []).filter(
      (r) => !r.cancelada,
    );
    const ops = normalized(list);
    const whole = !ops.itens.length && !ops.inscricoes.length && !ops.trocas.length;
    const seen = new Set<number>();
    const lineOf = (line: { item_id: number; quantidade: number }, verb: string) => {
      const found = left.find((l) => l.item.id === line.item_id);
      if (!found) throw badRequest('Item não encontrado neste pedido.', 'item_invalido');
      if (seen.has(line.item_id)) throw repeated();
      seen.add(line.item_id);
      if (line.quantidade > found.left)
        throw conflict(
          `Restam ${found.left} unidade(s) de ${found.item.productName} para ${verb}.`,
          'quantidade_indisponivel',
        );
      return found.item;
    };
    const chosen = whole
      ? left.filter((l) => l.left > 0).map((l) => ({ item: l.item, units: l.left }))
      : ops.itens.map((line) => ({ item: lineOf(line, 'desistir'), units: line.quantidade }));
    const swaps: VariantSwap[] = [];
    for (const line of ops.trocas)
      swaps.push(await checkSwap(tx, deps.catalog, lineOf(line, 'trocar'), line));
    if (new Set(ops.inscricoes).size !== ops.inscricoes.length) throw repeated();
    const registrationIds = whole ? registrations.map((r) => r.id) : ops.inscricoes;
    for (const id of registrationIds)
      if (!registrations.some((r) => r.id === id))
        throw badRequest('Inscrição não encontrada neste pedido.', 'inscricao_invalida');
    // The buyer's own withdrawal of registrations: CDC art. 49 within 7 days of the purchase; later the
    // race's own rules (the registrations module). Staff act for the shop and are not bound by it.
    if (registrationIds.length && actor.kind === 'comprador') {
      const last = addDays(storeDay(order.orderDate), WITHDRAWAL_DAYS);
      if (storeDay(deps.now()) > last)
        throw conflict(
          `O prazo de 7 dias para desistir das inscrições terminou em ${formatIsoDateBR(last)}.`,
          'prazo_encerrado',
        );
    }
    if (!chosen.length && !registrationIds.length && !swaps.length)
      throw conflict('Não há nada neste pedido para desistir.', 'nada_a_desistir');
    const unitsAfter = left.reduce((sum, l) => sum + l.left, 0) - chosen.reduce((s, c) => s + c.units, 0);
    const values = chosen.map((c) => ({ ...c, valueCents: unitsValue(order, c.item, c.units) }));
    return {
      values,
      swaps,
      registrationIds,
      unitsAfter,
      nothingLeft: unitsAfter === 0 && registrations.length === registrationIds.length,
    };
  }

  /**
   * Applies a list to an order locked by the caller, in its transaction. The request is written already
   * `reembolsada` (nothing shipped: nothing to wait for), the units go back to stock, and the money:
   * the units' value (the coupon's share taken off), the shipping once nothing is left to ship, or the
   * whole rest of the charge once nothing at all is left (`cancelWhole`). Refunds are sent by the caller
   * after the commit (`send`).
   */
  async function apply(
    tx: Tx,
    order: orderRepo.OrderRow,
    list: OrderChangeList & { versao?: number | undefined },
    actor: OrderChangeActor,
  ) {
    await checkVersion(tx, order.id, list.versao);
    const { values, swaps, registrationIds, unitsAfter, nothingLeft } = await plan(tx, order, list, actor);
    const now = deps.now();
    // A swap changes what the NF-e names: it is replaced while SEFAZ still lets it be cancelled.
    if (swaps.length && !(await deps.notaReplaceable(tx, order.id)))
      throw conflict(
        'A nota fiscal deste pedido já não pode ser substituída (passaram-se quase 24 horas da emissão): para outra cor ou outro tamanho, peça a troca depois de receber o pedido.',
        'nota_nao_substituivel',
      );
    // Swaps first: a shelf short of the new colour or size refuses the whole list before money moves.
    await applySwaps(tx, deps.catalog, order, swaps, now);
    if (swaps.length) await deps.change.fiscalJobs(tx, { kind: 'swap', orderId: order.id, at: now });
    const swapNote = swaps.length ? `Troca antes do envio: ${swaps.map(swapText).join('; ')}.` : null;
    const words =
      actor.kind === 'comprador' ? 'Desistência da compra pelo cliente' : 'Alteração feita pela loja';
    const reason = list.motivo ? `${words}: ${list.motivo}` : `${words}.`;
    const row = await repo.insertReturn(tx, {
      orderId: order.id,
      kind: 'desistencia',
      status: 'reembolsada',
      reason: actor.kind === 'comprador' ? 'arrependimento' : 'loja',
      note: [list.motivo, swapNote].filter(Boolean).join(' ') || null,
      registrationIds,
      createdAt: now,
    });
    await repo.insertReturnItems(
      tx,
      values.map((v) => ({
        returnId: row.id,
        orderItemId: v.item.id,
        quantity: v.units,
        valueCents: v.valueCents,
        // Never shipped: they are back on the shelf at once (the restock below).
        restocked: true,
      })),
    );
    await deps.catalog.restock(
      tx,
      order.chargeId,
      values.map((v) => ({
        productId: v.item.productId,
        colorId: v.item.colorId,
        sizeId: v.item.sizeId,
        quantity: v.units,
      })),
      now,
      { reason: 'cancelamento', orderId: order.id, note: words },
    );
    let refund: RefundRow | null;
    const participantRefunds: RefundRow[] = [];
    if (nothingLeft) {
      const whole = await cancelWhole(tx, order, {
        why: reason,
        note: actor.kind === 'comprador' ? 'Desistência da compra pelo cliente.' : (list.motivo ?? null),
        historyNote: reason,
        staffName: actor.kind === 'loja' ? actor.name : null,
        kitRefusal: 'a inscrição não pode ser desistida',
      });
      refund = whole.refund;
      participantRefunds.push(...whole.registrationRefunds);
    } else {
      // Some participants of several (docs/decisions/0041): each cancelled alone, refunded its share by
      // its own race's rules through the registrations module.
      for (const id of registrationIds)
        participantRefunds.push(...(await deps.registrations.cancelParticipant(tx, id, reason)));
      await deps.kitPickedUp(tx, registrationIds, 'a inscrição não pode ser desistida');
      // Shipping goes back with the last unit that would have shipped; the charge's cap is checked again
      // by `refundPart` under its row lock.
      const amount = refundDue({
        valueCents: values.reduce((sum, v) => sum + v.valueCents, 0),
        shippingCents: order.shippingCents,
        leftCents: Number.MAX_SAFE_INTEGER,
        nothingToShip: unitsAfter === 0,
        keepsNothing: false,
      });
      refund =
        amount > 0
          ? await deps.payments.refundPart(tx, order.chargeId, {
              refundId: returnRefundId(row.id),
              amountCents: amount,
              reason,
            })
          : null;
      // The order's NF-e: a devolução of what was given up (decision 0043); a list of swaps alone gives
      // nothing up.
      if (values.length || registrationIds.length)
        await deps.change.fiscalJobs(tx, { kind: 'back', returnId: row.id });
    }
    const done = await repo.updateReturn(tx, row.id, {
      refundedCents:
        (refund?.amountCents ?? 0) + participantRefunds.reduce((sum, r) => sum + r.amountCents, 0),
    });
    await deps.change.announce(tx, row.id);
    return {
      row: done,
      refunds: [...(refund ? [refund] : []), ...participantRefunds],
      nothingLeft,
      swaps,
    };
  }

  /** Sends the refunds of a committed change to the provider (after the commit, never inside it). */
  async function send(refunds: RefundRow[]) {
    for (const refund of refunds) await deps.payments.sendRefund(refund);
  }

  /**
   * What a list would give back, tried whole under every rule in a transaction that is then undone: the
   * same code as the change itself, so the quote and the change never disagree.
   */
  async function quote(
    lockOwned: (tx: Tx) => Promise<orderRepo.OrderRow>,
    list: OrderChangeList & { versao?: number | undefined },
    actor: OrderChangeActor,
  ) {
    try {
      await deps.db.transaction(async (tx) => {
        const order = await lockOwned(tx);
        const version = await versionOf(tx, order.id);
        const { refunds, nothingLeft, row, swaps } = await apply(tx, order, list, actor);
        const itens = await repo.listReturnItems(tx, [row.id]);
        const [charge] = await deps.payments.paidAndRefunded(tx, [order.chargeId]);
        throw new QuoteOnly<OrderChangeQuote>({
          a_devolver: centsToReais(refunds.reduce((sum, r) => sum + r.amountCents, 0)),
          itens: itens.map((i) => ({
            item_id: i.orderItemId,
            quantidade: i.quantity,
            valor: centsToReais(i.valueCents),
          })),
          inscricoes: row.registrationIds,
          trocas: swaps.map((s) => ({
            item_id: s.item.id,
            quantidade: s.units,
            cor: s.colorName,
            tamanho: s.sizeName,
          })),
          novo_total: centsToReais((charge?.amountCents ?? 0) - (charge?.refundedCents ?? 0)),
          cancela_pedido: nothingLeft,
          versao: version,
        });
      });
    } catch (err) {
      if (err instanceof QuoteOnly) return err.result as OrderChangeQuote;
      throw err;
    }
    throw new Error('unreachable: a quote always undoes its run');
  }

  return { versionOf, remaining, plan, apply, cancelWhole, send, quote };
}

export type OrderChangeManager = ReturnType<typeof createOrderChangeManager>;
