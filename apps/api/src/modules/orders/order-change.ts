import type { Db, Tx } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { conflict } from '../../plugins/errors.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { PaymentsService, RefundRow } from '../payments/payments.service.ts';
import type * as orderRepo from './orders.repository.ts';
import * as repo from './returns.repository.ts';

/**
 * The named steps every change to a sold order goes through (docs/decisions/0036 and 0040, later
 * 2026-12-02): the buyer's withdrawal before shipping, a return after delivery, an exchange, the staff
 * queue's refund, refusal and shipping, the daily lapse of exchanges and the staff cancellation call
 * these, so a rule is written once and holds on every path.
 *
 * - money: `unitsValue` (a line's units as paid, the coupon's share taken off) and `refundDue` (what a
 *   change gives back: the units, the shipping once nothing is left to ship, the whole rest of the charge,
 *   card interest included, once the buyer keeps nothing);
 * - stock: `closeExchange` (a closed exchange's held units back on the shelf, its paid difference back);
 * - fiscal: `fiscalJobs` (the NF-e, devolução or cancellation a change calls for, decision 0043);
 * - e-mail: `announce` (one e-mail per state, keyed by the state's history row).
 */

/**
 * A line's units as the buyer paid them: the price less the line's share of the coupon (the coupon
 * applies to products only). The value is rounded down (so the coupon's share is rounded up): parts
 * never add up to more than the products were paid, and the centavo left over goes back with the last
 * part, which returns everything left (docs/decisions/0036, later 2026-12-02, with the arithmetic).
 */
export function unitsValue(order: orderRepo.OrderRow, item: orderRepo.OrderItemRow, units: number): number {
  const gross = item.productPriceCents * units;
  if (!order.discountCents || !order.subtotalCents) return gross;
  return Math.floor((gross * (order.subtotalCents - order.discountCents)) / order.subtotalCents);
}

/**
 * What a change gives back on the order's charge, in centavos.
 * - `keepsNothing`: after this change the buyer keeps no unit and no registration of the order. CDC art. 49
 *   returns "os valores eventualmente pagos, a qualquer título" and art. 18 § 1 II "a quantia paga": the
 *   whole rest of the charge goes back, shipping and card interest included, before shipping or after
 *   delivery alike.
 * - `nothingToShip`: no unit is left to ship or keep: the shipping goes back with the units.
 * - otherwise the units' value (`unitsValue`).
 * Never above `leftCents`, what is left to refund on the charge (the payments module enforces it again
 * under the charge's row lock).
 */
export function refundDue(input: {
  valueCents: number;
  shippingCents: number;
  leftCents: number;
  nothingToShip: boolean;
  keepsNothing: boolean;
}): number {
  const due = input.keepsNothing
    ? input.leftCents
    : input.valueCents + (input.nothingToShip ? input.shippingCents : 0);
  return Math.max(0, Math.min(input.leftCents, due));
}

/** What the order's buyer keeps once the units asked back (requests not refused) are taken off. */
export async function keptAfter(
  db: Parameters<typeof repo.unitsAskedBack>[0],
  items: orderRepo.OrderItemRow[],
  liveRegistrations: number,
  orderId: number,
) {
  const asked = await repo.unitsAskedBack(db, orderId);
  const unitsKept = items.reduce((sum, i) => sum + i.quantity - (asked.get(i.id) ?? 0), 0);
  return {
    unitsKept,
    nothingToShip: unitsKept === 0,
    keepsNothing: unitsKept === 0 && liveRegistrations === 0,
  };
}

export interface OrderChangeDeps {
  db: Db;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  catalog: Pick<CatalogService, 'releaseExchangeHold'>;
  payments: Pick<PaymentsService, 'refundPart'>;
}

export function createOrderChange(deps: OrderChangeDeps) {
  /**
   * Enqueues the e-mail of the request's latest state, keyed by that state's history row: the job
   * tells that state (not whatever the request reached by the time it runs) and sends it once.
   */
  async function announce(tx: Tx | null, returnId: number): Promise<void> {
    const eventId = await repo.latestEventId(tx ?? deps.db, returnId);
    await deps.jobs.send(
      'mail.return-update',
      eventId ? { returnId, eventId } : { returnId },
      tx ? { tx } : {},
    );
  }

  /**
   * An exchange closed without shipping (refused, lapsed, or turned into a refund): the held units go
   * back on the shelf once (`troca_liberacao`), and a difference the buyer paid goes back whole from its
   * own charge (our id `ret<id>d`, once). Nothing for other requests. The caller sends the refund after
   * the commit.
   */
  async function closeExchange(tx: Tx, row: repo.ReturnRow, why: string): Promise<RefundRow | null> {
    if (row.kind !== 'troca') return null;
    const lines = heldLines(await repo.listExchangeItems(tx, [row.id]));
    if (lines.length) {
      await deps.catalog.releaseExchangeHold(tx, row.orderId, lines, `Troca nº ${row.id}: ${why}`);
      await repo.clearExchangeHold(tx, row.id);
    }
    if (row.differenceChargeId === null || row.differenceCents <= 0) return null;
    return deps.payments.refundPart(tx, row.differenceChargeId, {
      refundId: `ret${row.id}d`,
      amountCents: row.differenceCents,
      reason: `Troca nº ${row.id} encerrada sem envio: a diferença paga volta.`,
    });
  }

  /**
   * An exchange is turned into a refund only once the returned units are back in the shop: before that,
   * nothing came back and the replacement is still held for the buyer.
   */
  function refundableExchange(row: repo.ReturnRow): void {
    if (row.kind === 'troca' && row.status !== 'recebida')
      throw conflict(
        'Uma troca só pode ser reembolsada depois que os itens devolvidos chegarem à loja.',
        'troca_nao_recebida',
      );
  }

  /**
   * The notas a change calls for (docs/decisions/0043): a cancelled order's NF-e is cancelled (or gets
   * a devolução past the cancellation window); units that come back get a devolução NF-e; an exchange
   * that ships gets the devolução of the returned units and an NF-e of the replacement, at its price
   * (which covers a difference paid).
   */
  async function fiscalJobs(
    tx: Tx,
    change:
      | { kind: 'cancel'; orderId: number }
      | { kind: 'swap'; orderId: number; at: Date }
      | { kind: 'back' | 'exchange-shipped'; returnId: number },
  ): Promise<void> {
    if (change.kind === 'cancel')
      await deps.jobs.send('fiscal.cancel-order', { orderId: change.orderId }, { tx });
    else if (change.kind === 'swap')
      await deps.jobs.send(
        'fiscal.order-swapped',
        { orderId: change.orderId, swappedAt: change.at.toISOString() },
        { tx },
      );
    else if (change.kind === 'back')
      await deps.jobs.send('fiscal.return-refunded', { returnId: change.returnId }, { tx });
    else await deps.jobs.send('fiscal.exchange-shipped', { returnId: change.returnId }, { tx });
  }

  return { announce, closeExchange, refundableExchange, fiscalJobs };
}

export type OrderChange = ReturnType<typeof createOrderChange>;

/** The held units of an exchange as stock lines. */
const heldLines = (items: repo.ExchangeItemRow[]) =>
  items
    .filter((i) => i.held)
    .map((i) => ({ productId: i.productId, colorId: i.colorId, sizeId: i.sizeId, quantity: i.quantity }));
