// Owner: catalog. The tables of products, colours, sizes, stock and its reservations, images, home banners; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { charges } from './payments.ts';

/** A product's size guide: measurement names, and each size's values in cm (null where not measured). */
export interface SizeGuide {
  columns: string[];
  rows: Array<{ sizeId: number; values: Array<number | null> }>;
}

/** Product categories of the spec's section 3; the web routes /feminino, /masculino, /acessorios. */
export const productCategories = ['feminino', 'masculino', 'acessorios'] as const;

export const colors = pgTable(
  'colors',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    /** CSS colour used by the generated images and the colour buttons. */
    hex: text('hex').notNull(),
  },
  // "Azul" and "azul" are one colour: staff creating both at once cannot get two.
  (t) => [uniqueIndex('colors_name_lower_idx').on(sql`lower(${t.name})`)],
);

export const sizes = pgTable(
  'sizes',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [uniqueIndex('sizes_name_lower_idx').on(sql`lower(${t.name})`)],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** Integer centavos (docs/architecture.md §2); the wire shows reais. */
    priceCents: integer('price_cents').notNull(),
    category: text('category', { enum: productCategories }).notNull(),
    showOnHome: boolean('aparecer_home').notNull().default(false),
    /** Place among the home page's featured products (1 first); null when not featured. */
    homePosition: integer('home_position'),
    /** Hidden products stay for past orders but leave the shop's lists, search and product page. */
    hidden: boolean('oculto').notNull().default(false),
    /**
     * A draft (docs/decisions/0085): made but never published, so the shop does not show it. Publishing
     * needs a ready photo and stock; it happens at once or at `publishAt` (a collection's "lançamento").
     */
    draft: boolean('rascunho').notNull().default(false),
    /** When the minute job publishes the draft; null: staff publish it by hand. Only a draft has one. */
    publishAt: timestamp('publicar_em', { withTimezone: true }),
    /** Lower-cased, accent-stripped name + description, for accent-insensitive search. */
    searchText: text('search_text').notNull().default(''),
    /** Average review score 0–5, orders /topavaliados. */
    rating: integer('rating_tenths').notNull().default(0),
    weightGrams: integer('weight_grams').notNull(),
    lengthCm: integer('length_cm').notNull(),
    widthCm: integer('width_cm').notNull(),
    heightCm: integer('height_cm').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last change of what the product page shows; the sitemap's lastmod. A write that edits the product sets it. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Bumped by every staff edit of the product's fields; a save from an older version is refused. Stock changes never touch it. */
    version: integer('version').notNull().default(1),
    /**
     * The size guide staff keep (docs/decisions/0070): the garment's measurements (their names, in cm) for
     * each size, or null when the product has none.
     */
    sizeGuide: jsonb('size_guide').$type<SizeGuide>(),
    /**
     * A sale price ("de R$ 129,90 por R$ 99,90", docs/decisions/0082) from `saleStartsAt` until
     * `saleEndsAt`: the shop's price in that window, the list price shown struck through. Null: no sale.
     */
    salePriceCents: integer('preco_promocional_centavos'),
    saleStartsAt: timestamp('promocao_inicio', { withTimezone: true }),
    saleEndsAt: timestamp('promocao_fim', { withTimezone: true }),
    /** The colours × sizes the sale is limited to (decision 0082, later); null: every one. */
    saleOnly: jsonb('promocao_combinacoes').$type<Array<{ colorId: number; sizeId: number }>>(),
  },
  (t) => [
    index('products_category_idx').on(t.category),
    check('products_price_positive', sql`${t.priceCents} > 0`),
    check('products_publish_at_draft', sql`${t.publishAt} is null or ${t.draft}`),
    check('products_sale_only', sql`${t.saleOnly} is null or ${t.salePriceCents} is not null`),
    check(
      'products_sale',
      sql`(${t.salePriceCents} is null and ${t.saleStartsAt} is null and ${t.saleEndsAt} is null) or (${t.salePriceCents} > 0 and ${t.saleEndsAt} > ${t.saleStartsAt})`,
    ),
  ],
);

/**
 * An uploaded photo is `processando` until the queue has made its resized copies (docs/decisions/0027),
 * then `pronta`; `falhou` when they could not be made (its files are gone). The shop shows only `pronta`.
 */
export const photoStatuses = ['processando', 'pronta', 'falhou'] as const;

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** 1..19: imagem1..imagem19 on the wire. */
    position: integer('position').notNull(),
    url: text('url').notNull(),
    /** Generated pictures and photos made before the queue existed are `pronta`. */
    status: text('status', { enum: photoStatuses }).notNull().default('pronta'),
    /** The `<img alt>` staff wrote for it; empty: the shop describes it by the product's name. */
    alt: text('alt').notNull().default(''),
    /** The colour it shows, when it shows one: the product page puts the chosen colour's photos first. */
    colorId: integer('color_id').references(() => colors.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('product_images_product_idx').on(t.productId),
    check('product_images_position_range', sql`${t.position} between 1 and 19`),
  ],
);

export const stock = pgTable(
  'stock',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id),
    sizeId: integer('size_id')
      .notNull()
      .references(() => sizes.id),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.colorId, t.sizeId] }),
    // Stock never goes below zero, whatever the code above it does (issue: nothing oversold).
    check('stock_quantity_non_negative', sql`${t.quantity} >= 0`),
  ],
);

/** The home page's banner slides after the brand video, in `position` order (docs/decisions/0034). */
export const homeBanners = pgTable(
  'home_banners',
  {
    id: serial('id').primaryKey(),
    position: integer('position').notNull(),
    /** An uploaded photo's 800 px WebP or one of the shop's own images under /media/. */
    imageUrl: text('image_url').notNull(),
    /** Describes the image (its alt) and names the link. */
    text: text('text').notNull(),
    /** A path of the shop ("/eventos") or an https address. */
    link: text('link').notNull(),
  },
  (t) => [index('home_banners_position_idx').on(t.position)],
);

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

/**
 * "Avise-me quando chegar" (docs/decisions/0069): someone waiting for one colour and size of a product to
 * come back. The sweep tells the oldest waiting first, as many as the units that came back, once each
 * (`notified_at`); one waiting alert per address and combination.
 */
export const stockAlerts = pgTable(
  'stock_alerts',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id),
    sizeId: integer('size_id')
      .notNull()
      .references(() => sizes.id),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('stock_alerts_waiting_unique')
      .on(t.productId, t.colorId, t.sizeId, sql`lower(${t.email})`)
      .where(sql`${t.notifiedAt} is null`),
    index('stock_alerts_waiting_idx')
      .on(t.productId, t.colorId, t.sizeId, t.id)
      .where(sql`${t.notifiedAt} is null`),
  ],
);

/**
 * How many units that came back to a combination the alerts have already counted (docs/decisions/0069):
 * the sum of the ledger's positive movements when the sweep last looked, or when the first person of a
 * new line asked. What came back since is the difference, whatever order the movements committed in.
 */
export const stockAlertMarks = pgTable(
  'stock_alert_marks',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id),
    sizeId: integer('size_id')
      .notNull()
      .references(() => sizes.id),
    countedIn: integer('counted_in').notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.colorId, t.sizeId] })],
);
