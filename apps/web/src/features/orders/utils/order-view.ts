import type { Order } from '@passada/core/contracts/orders';

/** Newest first; equal dates keep the higher id (the later order) on top. */
export function newestFirst(orders: readonly Order[]): Order[] {
  return [...orders].sort((a, b) => {
    const byDate = Date.parse(b.order_date) - Date.parse(a.order_date);
    return Number.isNaN(byDate) || byDate === 0 ? b.id - a.id : byDate;
  });
}

export { ORDER_STATUS_LABEL as STATUS_LABEL } from '@passada/core/contracts/orders';
export { formatDateTime as formatOrderDate } from '../../../lib/format.ts';
