// Owner: shipping. The tables of shipping labels and their tracking; only this module writes them (docs/architecture.md §9).

import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { LabelRequest } from '../../providers/shipping/label.provider.ts';
import { orders } from './orders.ts';

/**
 * One shipping label per order (docs/decisions/0044). The row is claimed before the provider is
 * called and keeps the provider's reference as soon as it exists, so a retry pays nothing twice.
 */
export const shippingLabels = pgTable(
  'shipping_labels',
  {
    orderId: integer('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['offline', 'melhorenvio', 'correios'] }).notNull(),
    /**
     * `comprando` while a purchase runs (or died mid-way), `comprada` once the tracking code is known,
     * `cancelada` once the provider cancelled it with its order (docs/decisions/0048).
     */
    status: text('status', { enum: ['comprando', 'comprada', 'cancelada'] }).notNull(),
    /** Until when the running purchase holds the label; another attempt waits until then. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** The provider's id of the label (Melhor Envio's cart id, the Correios pré-postagem), stored before it is paid. */
    providerRef: text('provider_ref'),
    trackingCode: text('tracking_code'),
    priceCents: integer('price_cents'),
    /** What was sent to the provider: parties, package, declared value, NF-e key. */
    request: jsonb('request').$type<LabelRequest>().notNull(),
    staffName: text('staff_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    purchasedAt: timestamp('purchased_at', { withTimezone: true }),
    /** The last tracking state the customer was told about (and the order moved to). */
    trackingState: text('tracking_state', {
      enum: ['aguardando_postagem', 'postado', 'saiu_para_entrega', 'entregue'],
    })
      .notNull()
      .default('aguardando_postagem'),
    trackedAt: timestamp('tracked_at', { withTimezone: true }),
    /** When the label was cancelled with its order (the provider refunds it). */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Why the provider refused to cancel it (posted already, say), for staff; null otherwise. */
    cancelRefusal: text('cancel_refusal'),
  },
  (t) => [index('shipping_labels_tracking_idx').on(t.status, t.trackingState)],
);
