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
    /** PAC or SEDEX; null when nothing in the order ships (only event registrations). */
    shippingService: text('shipping_service'),
    subtotalCents: integer('subtotal_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    interestCents: integer('interest_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
    /** What a discount coupon took off the products (`couponCode`), already out of `total_cents`. */
    discountCents: integer('discount_cents').notNull().default(0),
    couponCode: text('coupon_code'),
    installments: integer('installments').notNull().default(1),
    /**
     * Copy of the delivery address at purchase time; later edits do not change the order. Null when
     * nothing in the order ships.
     */
    address: jsonb('address').$type<OrderAddress>(),
    orderDate: timestamp('order_date', { withTimezone: true }).notNull().defaultNow(),
    /** Correios object code, set when the order is shipped. */
    trackingCode: text('tracking_code'),
    /** The buyer's CPF, 11 digits: the "CPF na nota" of the checkout, else the card holder's; null when neither. */
    buyerCpf: text('buyer_cpf'),
    /** Opt-in at checkout to WhatsApp updates at the delivery phone (core's WHATSAPP_CONSENT): version and when. */
    whatsappConsentVersion: text('whatsapp_consentimento_versao'),
    whatsappConsentAt: timestamp('whatsapp_consentimento_em', { withTimezone: true }),
    /**
     * When the buyer's personal data was anonymised, SALES_RETENTION_YEARS after the sale's year
     * (`privacy.sales-retention`): address blanked but city and state, CPF and account link removed;
     * items and amounts stay for the books.
     */
    personalDataErasedAt: timestamp('dados_pessoais_apagados_em', { withTimezone: true }),
  },
  (t) => [
    index('orders_user_idx').on(t.userId),
    index('orders_status_date_idx').on(t.status, t.orderDate),
    index('orders_date_idx').on(t.orderDate),
    index('orders_buyer_cpf_idx').on(t.buyerCpf),
  ],
);

/** Each move of an order after payment, by whom: the timeline staff and buyer see. */
export const orderStatusChanges = pgTable(
  'order_status_changes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status', { enum: orderStatuses }).notNull(),
    /** Kept as written so the line still says who after the staff account is gone. */
    staffName: text('staff_name'),
    trackingCode: text('tracking_code'),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('order_status_changes_order_idx').on(t.orderId)],
);

export const orderItems = pgTable(
  'order_items',
  {
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
  },
  (t) => [index('order_items_order_idx').on(t.orderId)],
);

/**
 * Staff's internal notes on an order: never shown to the buyer. Staff ids live in the painel schema,
 * which imports this one, so the author is kept as written (name and e-mail), like status changes.
 */
export const orderNotes = pgTable(
  'order_notes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    staffName: text('staff_name').notNull(),
    text: text('text').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('order_notes_order_idx').on(t.orderId)],
);
