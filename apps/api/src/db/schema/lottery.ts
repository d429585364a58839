import { sql } from 'drizzle-orm';
import {
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
import { eventCategories, events } from './events.ts';

/**
 * An event's lottery (sorteio, docs/decisions/0051-lottery-opening.md): the entry window, the places
 * drawn, how long winners have to pay, the commitment published before the window closes and the seed
 * published after the draw. One row per event whose opening is a lottery.
 */
export const openingLotteries = pgTable(
  'opening_lotteries',
  {
    eventId: integer('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    entriesFrom: timestamp('entries_from', { withTimezone: true }).notNull(),
    entriesUntil: timestamp('entries_until', { withTimezone: true }).notNull(),
    /** Places given by the lottery (winners of the first draw; further draws refill the unpaid ones). */
    places: integer('places').notNull(),
    /** Hours a winner has to pay, from the draw that picked them. */
    payHours: integer('pay_hours').notNull(),
    /** The secret seed: chosen when the commitment is published, shown to everyone only after the draw. */
    seed: text('seed'),
    /** SHA-256 of the seed (hex), public from `committed_at`. */
    commitment: text('commitment'),
    committedAt: timestamp('committed_at', { withTimezone: true }),
    /** The first draw's instant: from it the seed and the list of entry ids are public. */
    drawnAt: timestamp('drawn_at', { withTimezone: true }),
    /** Draws made (1 the first, more for places left unpaid). */
    draws: integer('draws').notNull().default(0),
  },
  (t) => [
    check(
      'opening_lotteries_numbers_check',
      sql`${t.places} >= 1 and ${t.payHours} >= 1 and ${t.entriesUntil} > ${t.entriesFrom}`,
    ),
  ],
);

/** A runner's entry in an event's lottery: one per CPF per event, no payment. */
export const lotteryEntries = pgTable(
  'lottery_entries',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    cpf: text('cpf').notNull(),
    email: text('email').notNull(),
    /** Null once erased (account deletion or retention after the event, docs/decisions/0047). */
    birthDate: date('birth_date', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Place in the ranking (1 = first drawn), set by the first draw. */
    rank: integer('rank'),
    /** The draw that picked this entry (null: not drawn, may be picked by a further draw). */
    wonInDraw: integer('won_in_draw'),
    /** Until when the winner may pay (registration through the usual path). */
    payBy: timestamp('pay_by', { withTimezone: true }),
  },
  (t) => [
    // An erased entry keeps its id and ranking with a blank CPF (docs/decisions/0047).
    uniqueIndex('lottery_entries_event_cpf_idx').on(t.eventId, t.cpf).where(sql`${t.cpf} <> ''`),
    index('lottery_entries_user_idx').on(t.userId),
  ],
);
