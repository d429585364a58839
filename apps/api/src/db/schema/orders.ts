import { ORDER_STATUSES, type OrderAddress } from '@passada/core/contracts/orders';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { colors, products, sizes } from './catalog.ts';
import { charges } from './payments.ts';

/** The contract's order statuses: one source for the wire and the column. */
export const orderStatuses = ORDER_STATUSES;

/** Units held for a charge between its creation and its payment, refusal or expiry. */
export const stockReservations = pgTable(
  'stock_reservations',
  {
    id: serial('id').primaryKey(),
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id),
    sizeId: integer('size_id')
      .notNull()
      .references(() => sizes.id),
    quantity: integer('quantity').notNull(),
    /** Set when the units went back to stock (refused or expired charge). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [index('stock_reservations_charge_idx').on(t.chargeId)],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Unique: a charge pays for exactly one order. */
    chargeId: integer('charge_id')
      .notNull()
      .unique()
      .references(() => charges.id),
    status: text('status', { enum: orderStatuses }).notNull(),
    paymentMethod: text('payment_method').notNull(),
    shippingService: text('shipping_service').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    interestCents: integer('interest_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
    installments: integer('installments').notNull().default(1),
    /** Copy of the delivery address at purchase time; later edits do not change the order. */
    address: jsonb('address').$type<OrderAddress>().notNull(),
    orderDate: timestamp('order_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('orders_user_idx').on(t.userId)],
);

export const orderItems = pgTable('order_items', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull(),
  productName: text('product_name').notNull(),
  productPriceCents: integer('product_price_cents').notNull(),
  productImage: text('product_image').notNull(),
  colorId: integer('color_id').notNull(),
  colorName: text('color_name').notNull(),
  sizeId: integer('size_id').notNull(),
  sizeName: text('size_name').notNull(),
  quantity: integer('quantity').notNull(),
});
