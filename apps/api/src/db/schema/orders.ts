// Owner: orders. The tables of orders, their lines, notes and status history; withdrawals, returns, exchanges and deliveries; only this module writes them (docs/architecture.md §9).
import { ORDER_STATUSES, type OrderAddress } from '@passada/core/contracts/orders';
import { RETURN_KINDS, RETURN_STATUSES } from '@passada/core/contracts/returns';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { colors, products, sizes } from './catalog.ts';
import { charges } from './payments.ts';

/** The contract's order statuses: one source for the wire and the column. */
export const orderStatuses = ORDER_STATUSES;

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
    /**
     * True from the sale until the confirmation e-mail is taken to be sent (`mail.order-confirmation`):
     * a later e-mail about the order (a withdrawal, a cancellation) sends the confirmation first while
     * it is still pending, so the buyer never reads of a change before the purchase (orders README).
     */
    confirmationPending: boolean('confirmacao_pendente').notNull().default(false),
    /**
     * An addition the buyer paid before the order shipped (docs/decisions/0087): the order it joins,
     * whose parcel carries its units; null for an order of its own.
     */
    complementOfId: integer('complemento_de_id').references((): AnyPgColumn => orders.id),
  },
  (t) => [
    index('orders_user_idx').on(t.userId),
    index('orders_complemento_idx').on(t.complementOfId).where(sql`${t.complementOfId} is not null`),
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
  (t) => [
    index('order_items_order_idx').on(t.orderId),
    // A product's page counts its units delivered (how it fits, docs/decisions/0070).
    index('order_items_product_idx').on(t.productId),
  ],
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

/**
 * What a buyer asked back after paying (docs/decisions/0036): a withdrawal before shipping (CDC art. 49,
 * refunded at once), a return after delivery (withdrawal within 7 days, or a defect within 90) or an
 * exchange. Written by the orders module only.
 */
export const orderReturns = pgTable(
  'order_returns',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    kind: text('kind', { enum: RETURN_KINDS }).notNull(),
    status: text('status', { enum: RETURN_STATUSES }).notNull(),
    /** `arrependimento` (art. 49) or `defeito` (art. 26). */
    reason: text('reason').notNull(),
    /** The buyer's own words. */
    note: text('note'),
    /** Why staff refused it, shown to the buyer. */
    refusal: text('refusal'),
    /** The order's registrations this request withdrew (cancelled with it). */
    registrationIds: jsonb('registration_ids').$type<number[]>().notNull().default([]),
    /** The reverse-logistics posting code and how to use it. */
    postingCode: text('posting_code'),
    postingInstructions: text('posting_instructions'),
    /** Last day the code is accepted at the post office (aaaa-mm-dd). */
    postingValidUntil: date('posting_valid_until', { mode: 'string' }),
    /** What went back to the buyer, in centavos (items and shipping), summed over the refunds. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /**
     * An exchange's price difference in centavos (docs/decisions/0040): positive the buyer pays it (a
     * charge of purpose `exchange`), negative it goes back through a partial refund when the exchange ships.
     */
    differenceCents: integer('difference_cents').notNull().default(0),
    /** The paid charge that settled a positive difference (one per request). */
    differenceChargeId: integer('difference_charge_id').unique(),
    /** The outbound tracking code of an exchange's new units (UPU S10). */
    exchangeTrackingCode: text('exchange_tracking_code'),
    /** Bumped by every staff change: a save from an older version is refused (docs/decisions/0025). */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [index('order_returns_order_idx').on(t.orderId), index('order_returns_status_idx').on(t.status)],
);

/** The units of each order line a request covers. */
export const orderReturnItems = pgTable(
  'order_return_items',
  {
    id: serial('id').primaryKey(),
    returnId: integer('return_id')
      .notNull()
      .references(() => orderReturns.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id),
    quantity: integer('quantity').notNull(),
    /** What the line's units are worth to the buyer (price less its share of the coupon), in centavos. */
    valueCents: integer('value_cents').notNull(),
    /** Staff's check on receipt: back to stock or not. Null until received. */
    restocked: boolean('restocked'),
  },
  (t) => [
    index('order_return_items_return_idx').on(t.returnId),
    check('order_return_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** When the parcel reached the buyer: staff mark it, the tracking job may fill it later. */
export const orderDeliveries = pgTable('order_deliveries', {
  orderId: integer('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  /** The store-calendar day of delivery (America/Fortaleza). */
  deliveredOn: date('delivered_on', { mode: 'string' }).notNull(),
  source: text('source', { enum: ['painel', 'rastreio'] }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});

/**
 * What an exchange sends out in place of the returned line (docs/decisions/0040): the same product in
 * another colour or size. `held` while the unit is taken off the shelf for the buyer (a `troca_reserva`
 * movement); false once it shipped or went back (`troca_liberacao`, a refusal or a lapsed window).
 */
export const orderExchangeItems = pgTable(
  'order_exchange_items',
  {
    id: serial('id').primaryKey(),
    returnId: integer('return_id')
      .notNull()
      .references(() => orderReturns.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id),
    sizeId: integer('size_id')
      .notNull()
      .references(() => sizes.id),
    colorName: text('color_name').notNull(),
    sizeName: text('size_name').notNull(),
    quantity: integer('quantity').notNull(),
    /** The product's price when the exchange was asked, per unit, in centavos. */
    unitPriceCents: integer('unit_price_cents').notNull(),
    held: boolean('held').notNull().default(true),
  },
  (t) => [
    index('order_exchange_items_return_idx').on(t.returnId),
    check('order_exchange_items_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** Every state a request went through, for the order page's history (written with each change). */
export const orderReturnEvents = pgTable(
  'order_return_events',
  {
    id: serial('id').primaryKey(),
    returnId: integer('return_id')
      .notNull()
      .references(() => orderReturns.id, { onDelete: 'cascade' }),
    status: text('status', { enum: RETURN_STATUSES }).notNull(),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** When this state's e-mail was taken to be sent: one e-mail per state, once (`mail.return-update`). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [index('order_return_events_return_idx').on(t.returnId)],
);

/** What a reviewer says of the size they bought (docs/decisions/0071). */
export const REVIEW_FITS = ['pequeno', 'no_tamanho', 'grande'] as const;

/**
 * Verified reviews (docs/decisions/0071): one per order line, by the account that bought it, once the
 * order was delivered and the line not sent back. `pendente` until staff publish or hide it (with a
 * reason); only `publicada` ones show, count in the average and answer how it fits.
 */
export const productReviews = pgTable(
  'product_reviews',
  {
    id: serial('id').primaryKey(),
    orderItemId: integer('order_item_id')
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The first name shown beside it (never the whole name nor the e-mail). */
    authorName: text('author_name').notNull(),
    stars: integer('stars').notNull(),
    text: text('text').notNull().default(''),
    fit: text('fit', { enum: REVIEW_FITS }),
    status: text('status', { enum: ['pendente', 'publicada', 'oculta'] })
      .notNull()
      .default('pendente'),
    hiddenReason: text('hidden_reason'),
    /**
     * The buyer's optional photo (decision 0071, later): the media storage's key of its WebP, shown only
     * with the review; gone when the account is erased.
     */
    photoKey: text('photo_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
  },
  (t) => [
    index('product_reviews_product_idx').on(t.productId, t.status, t.createdAt),
    index('product_reviews_status_idx').on(t.status, t.createdAt),
    check('product_reviews_stars', sql`${t.stars} between 1 and 5`),
  ],
);

/** A line of a cart kept on the server: a product in a colour and size, and how many. */
export interface CartItemRow {
  productId: number;
  colorId: number;
  sizeId: number;
  quantity: number;
}

/**
 * A signed-in buyer's cart kept on the server (docs/decisions/0072): the lines alone, prices and names
 * read again whenever it is shown, so a cart left on the phone is there on the computer and a reminder
 * can rebuild it. `startedAt` is when it last went from empty to holding something: one cart for the
 * reminder's "once".
 */
export const carts = pgTable(
  'carts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    items: jsonb('items').$type<CartItemRow[]>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('carts_updated_idx').on(t.updatedAt)],
);

/**
 * The recovery reminders sent (docs/decisions/0072), one per cart (`carrinho`, `ref` the account and
 * the cart's start) or per unpaid registration charge (`inscricao`, `ref` its txid): the unique index is
 * the "never twice".
 */
export const recoveryReminders = pgTable(
  'recovery_reminders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['carrinho', 'inscricao'] }).notNull(),
    ref: text('ref').notNull(),
    /** The registration's event (null for a cart). */
    eventId: integer('event_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('recovery_reminders_ref_unique').on(t.kind, t.ref),
    index('recovery_reminders_user_idx').on(t.userId, t.sentAt),
  ],
);

/** Accounts that asked for no cart or registration reminders (from "Minha conta" or the e-mail's link). */
export const recoveryOptOuts = pgTable('recovery_opt_outs', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true }).notNull(),
});

/**
 * Accounts that asked for the reminder by WhatsApp too (docs/decisions/0084): the number and when they
 * ticked that opt-in, apart from any order's or registration's consent (a reminder is marketing).
 */
export const recoveryWhatsapp = pgTable('recovery_whatsapp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Digits with the DDD, as the account typed them (`85999990000`). */
  phone: text('phone').notNull(),
  consentAt: timestamp('consentimento_em', { withTimezone: true }).notNull(),
});

/** The back office's choice for the reminders: on or off, and how long after the buyer left. One row. */
export const recoverySettings = pgTable(
  'recovery_settings',
  {
    id: integer('id').primaryKey(),
    active: boolean('active').notNull(),
    delayMinutes: integer('delay_minutes').notNull(),
    lockVersion: integer('lock_version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('recovery_settings_one_row', sql`${t.id} = 1`)],
);
