// Owner: opening. The tables of how an event opens: the waiting room and the lottery; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
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

/** A runner's entry in an event's lottery: one per CPF per account and event, no payment. */
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
    // One entry per CPF per account: another account's entry of a CPF (a squatter's) never locks the
    // person out; the draw gives a CPF one place (docs/decisions/0051, later). An erased entry keeps its
    // id and ranking with a blank CPF (docs/decisions/0047).
    uniqueIndex('lottery_entries_event_cpf_user_idx')
      .on(t.eventId, t.cpf, t.userId)
      .where(sql`${t.cpf} <> ''`),
    index('lottery_entries_user_idx').on(t.userId),
  ],
);

/**
 * How an event opens its registrations (docs/decisions/0046-opening-day.md): a waiting room (`fila`,
 * ordem de chegada com sala de espera) or a lottery (`sorteio`). One small row per event, read by every
 * process on a timer and when `opening_changed` is notified; runners' position polls never read it.
 */
export const eventOpenings = pgTable(
  'event_openings',
  {
    eventId: integer('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    mode: text('mode').notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    /** Runners arriving this many minutes before the opening join the pre-queue (drawn at the opening). */
    preQueueMinutes: integer('pre_queue_minutes').notNull().default(30),
    /** Runners admitted per minute; null: automatic, from the places left and the turn. */
    admittedPerMinute: integer('admitted_per_minute'),
    /** How long an admitted runner keeps the turn to finish the registration. */
    turnMinutes: integer('turn_minutes').notNull().default(15),
    /** Registrations of the event per CPF, and per buying account. */
    perCpf: integer('per_cpf').notNull().default(1),
    perBuyer: integer('per_buyer').notNull().default(4),
    /** The secret seed of the pre-queue shuffle; never sent to browsers. */
    secret: text('secret').notNull(),
    /** Arrival numbers issued so far (the last one given). */
    arrivals: integer('arrivals').notNull().default(0),
    /** Arrivals before the opening, frozen by the first join or timer tick after it. */
    preQueueSize: integer('pre_queue_size'),
    /** The admission schedule: from `base_at`, `base_admitted` plus `per_minute` each minute. */
    baseAt: timestamp('base_at', { withTimezone: true }),
    baseAdmitted: integer('base_admitted').notNull().default(0),
    perMinute: integer('per_minute').notNull().default(0),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('event_openings_mode_check', sql`${t.mode} in ('fila', 'sorteio')`),
    check(
      'event_openings_numbers_check',
      sql`${t.preQueueMinutes} >= 0 and ${t.turnMinutes} >= 1 and ${t.perCpf} >= 1 and ${t.perBuyer} >= 1 and (${t.admittedPerMinute} is null or ${t.admittedPerMinute} >= 1)`,
    ),
  ],
);

/** A runner's arrival in an event's waiting room: one per account, so every device shares the turn. */
export const openingArrivals = pgTable(
  'opening_arrivals',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] })],
);
