import { ORDER_STATUS_LABEL, type Order } from '@passada/core/contracts/orders';

/** Newest first; equal dates keep the higher id (the later order) on top. */
export function newestFirst(orders: readonly Order[]): Order[] {
  return [...orders].sort((a, b) => {
    const byDate = Date.parse(b.order_date) - Date.parse(a.order_date);
    return Number.isNaN(byDate) || byDate === 0 ? b.id - a.id : byDate;
  });
}

import { formatDeliveryDate } from '../../../lib/format.ts';

export { formatDateTime as formatOrderDate } from '../../../lib/format.ts';
export { ORDER_STATUS_LABEL as STATUS_LABEL };

/** The steps a paid order goes through, as its timeline shows them (docs/product.md §3). */
const TIMELINE_STEPS = ['pago', 'em separação', 'enviado', 'entregue'] as const;

export interface TimelineStep {
  label: string;
  /** Reached already (the order's status is this step or a later one). */
  reached: boolean;
  /** The order's status now. */
  current: boolean;
  /** The day it happened, when the shop's answer says it (dd/mm/aaaa). */
  date: string | null;
}

/**
 * Pago → Em separação → Enviado → Entregue for an order being fulfilled, null for one that is waiting,
 * cancelled or expired. Payment is dated by the order (created when the charge was paid), packing and
 * shipping by the order's own moves (`andamento`, the latest move to each step), delivery by the
 * after-sale's day (`deliveredOn`, aaaa-mm-dd) or else by its move. `formatDay` formats an instant.
 */
export function orderTimeline(
  order: Pick<Order, 'status' | 'order_date' | 'andamento'>,
  deliveredOn: string | null,
  formatDay: (iso: string) => string,
): TimelineStep[] | null {
  const at = (TIMELINE_STEPS as readonly string[]).indexOf(order.status);
  if (at < 0) return null;
  const movedAt = (status: string) => order.andamento?.findLast((m) => m.status === status)?.em ?? null;
  const dateOf = (status: (typeof TIMELINE_STEPS)[number]): string | null => {
    if (status === 'pago') return formatDay(order.order_date);
    if (status === 'entregue' && deliveredOn) return formatDeliveryDate(deliveredOn);
    const moved = movedAt(status);
    return moved ? formatDay(moved) : null;
  };
  return TIMELINE_STEPS.map((status, i) => ({
    label: ORDER_STATUS_LABEL[status],
    reached: i <= at,
    current: i === at,
    date: i <= at ? dateOf(status) : null,
  }));
}

/** A line's total: the unit price (reais) times the quantity, in cents, as the server adds it. */
export function lineTotalCents(unitReais: number, quantity: number): number {
  return Math.round(unitReais * 100) * quantity;
}
