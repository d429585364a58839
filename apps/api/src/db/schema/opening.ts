import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { events } from './events.ts';

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
