import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { eventCategories, events } from './events.ts';
import { charges } from './payments.ts';

/** Where a waitlist entry stands (docs/decisions/0042-waitlist.md). */
export const WAITLIST_STATUSES = [
  /** In line. */
  'aguardando',
  /** A freed place is held for them until `offer_expires_at`. */
  'oferta',
  /** They accepted: the place moved to their charge (`charge_id`), not paid yet. */
  'aceita',
  /** The charge was paid: they are registered. */
  'inscrita',
  /** The offer ran out unanswered (or its charge went unpaid past the offer's time). */
  'expirada',
  /** They left the list. */
  'saiu',
] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/**
 * The waitlist of a sold-out category: one row per person in line, kept after they leave or are
 * registered (the history). Owned by the registrations module. Places an outstanding offer holds are
 * not taken from `event_categories.quantidade_disponivel`: what the public may take is the places left
 * minus the outstanding offers, and nothing while someone waits.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    fullName: text('nome_completo').notNull(),
    cpf: text('cpf').notNull(),
    email: text('email').notNull(),
    status: text('status', { enum: WAITLIST_STATUSES }).notNull().default('aguardando'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    /** The charge an accepted offer's place moved to. */
    chargeId: integer('charge_id').references(() => charges.id),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The random part of the entry's signed link (drawn by the database, like `checkin_nonce`). */
    linkNonce: text('link_nonce').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
  },
  (t) => [
    // One place in line per CPF and category while the entry is alive.
    uniqueIndex('waitlist_entries_cpf_unique')
      .on(t.categoryId, t.cpf)
      .where(sql`${t.status} in ('aguardando', 'oferta', 'aceita')`),
    index('waitlist_entries_category_status_idx').on(t.categoryId, t.status, t.id),
    index('waitlist_entries_charge_idx').on(t.chargeId),
  ],
);

/** What happened to a waitlist entry, in order: the history the organiser sees. */
export const waitlistHistory = pgTable(
  'waitlist_history',
  {
    id: serial('id').primaryKey(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['entrou', 'oferta', 'oferta_expirada', 'aceitou', 'devolvida', 'inscrita', 'saiu'],
    }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('waitlist_history_entry_idx').on(t.entryId)],
);
