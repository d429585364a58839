// Owner: coupons. The tables of discount coupons and their uses; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { productCategories } from './catalog.ts';
import { charges } from './payments.ts';

export const couponKinds = ['percentual', 'fixo'] as const;

export const couponScopes = ['loja', 'corridas'] as const;

/** A use is held by an open charge, given back when the charge ends unpaid, confirmed when paid. */
export const couponUseStatuses = ['reservado', 'liberado', 'confirmado'] as const;

/** Discount coupons staff create in the back office (modules/coupons/README.md). */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    /** Stored in capitals; unique without case. */
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: couponKinds }).notNull(),
    /** Whole percent (1–100) of a `percentual` coupon. */
    percent: integer('percent'),
    /** Centavos off of a `fixo` coupon. */
    amountCents: integer('amount_cents'),
    /** First and last store day (America/Fortaleza) it is valid, inclusive; null: no bound. */
    validFrom: date('valid_from'),
    validUntil: date('valid_until'),
    /** Null: no limit. Uses held by open charges count with confirmed ones. */
    maxUses: integer('max_uses'),
    maxUsesPerCpf: integer('max_uses_per_cpf'),
    maxUsesPerAccount: integer('max_uses_per_account'),
    /** The eligible lines must add up to at least this. */
    minAmountCents: integer('min_amount_cents'),
    scope: text('scope', { enum: couponScopes }).notNull(),
    /** Shop coupons: only products of these categories (empty: all). */
    productCategories: text('product_categories', { enum: productCategories })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Race coupons: only these events and these event categories (empty: all). */
    eventIds: integer('event_ids').array().notNull().default(sql`'{}'::integer[]`),
    eventCategoryIds: integer('event_category_ids').array().notNull().default(sql`'{}'::integer[]`),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupons_code_unique').on(sql`lower(${t.code})`),
    check(
      'coupons_value_matches_kind',
      sql`(${t.kind} = 'percentual' and ${t.percent} between 1 and 100 and ${t.amountCents} is null)
        or (${t.kind} = 'fixo' and ${t.amountCents} > 0 and ${t.percent} is null)`,
    ),
  ],
);

/** One coupon use per charge: held when the charge is created, then released or confirmed. */
export const couponUses = pgTable(
  'coupon_uses',
  {
    id: serial('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    /** Unique: a charge uses at most one coupon, once. */
    chargeId: integer('charge_id')
      .notNull()
      .unique()
      .references(() => charges.id),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The participant's CPF (registrations); null for shop orders. */
    cpf: text('cpf'),
    status: text('status', { enum: couponUseStatuses }).notNull(),
    discountCents: integer('discount_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    index('coupon_uses_coupon_idx').on(t.couponId, t.status),
    index('coupon_uses_user_idx').on(t.userId),
  ],
);
