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
import { charges } from './payments.ts';

export const events = pgTable('events', {
  id: serial('id').primaryKey(),
  name: text('nome_evento').notNull(),
  organizer: text('organizer').notNull(),
  imageUrl: text('imagem_evento').notNull(),
  city: text('city').notNull(),
  state: text('state').notNull(),
  startDate: date('start_data_evento').notNull(),
  endDate: date('end_data_evento').notNull(),
  /** Last day (America/Fortaleza) on which registration is open. */
  registrationDeadline: date('prazo_inscricao').notNull(),
  time: text('hora_evento').notNull(),
  description: text('descricao_evento').notNull(),
  regulation: text('regulamento').notNull(),
  /** Last change of what the event page shows; the sitemap's lastmod. A write that edits the event sets it. */
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const eventDays = pgTable(
  'event_days',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    date: date('data').notNull(),
  },
  (t) => [index('event_days_event_idx').on(t.eventId)],
);

export const eventCategories = pgTable(
  'event_categories',
  {
    id: serial('id').primaryKey(),
    dayId: integer('day_id')
      .notNull()
      .references(() => eventDays.id, { onDelete: 'cascade' }),
    name: text('nome_categoria').notNull(),
    priceCents: integer('preco_inscricao_cents').notNull(),
    /** Places left; decremented atomically when a charge reserves one. */
    placesLeft: integer('quantidade_disponivel').notNull(),
  },
  (t) => [
    index('event_categories_day_idx').on(t.dayId),
    check('event_categories_places_non_negative', sql`${t.placesLeft} >= 0`),
  ],
);

/** Places held for a charge until it is paid, refused or expires. */
export const placeReservations = pgTable(
  'place_reservations',
  {
    id: serial('id').primaryKey(),
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [index('place_reservations_charge_idx').on(t.chargeId)],
);

export const registrations = pgTable(
  'registrations',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    /** The account that made the registration (for oneself or for someone else). */
    accountUserId: integer('account_user_id').references(() => users.id, { onDelete: 'set null' }),
    chargeId: integer('charge_id')
      .notNull()
      .unique()
      .references(() => charges.id),
    fullName: text('nome_completo').notNull(),
    cpf: text('cpf').notNull(),
    birthDate: date('data_nascimento').notNull(),
    gender: text('genero').notNull(),
    address: text('endereco').notNull(),
    phone: text('numero_contato').notNull(),
    email: text('email').notNull(),
    street: text('street').notNull(),
    zipCode: text('zip_code').notNull(),
    state: text('state').notNull(),
    city: text('city').notNull(),
    neighborhood: text('neighborhood').notNull(),
    totalCents: integer('total_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('registrations_account_cpf_idx').on(t.accountUserId, t.cpf)],
);

export const registrationCategories = pgTable(
  'registration_categories',
  {
    id: serial('id').primaryKey(),
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id),
    cpf: text('cpf').notNull(),
    priceCents: integer('price_cents').notNull(),
  },
  // The same CPF cannot hold the same category twice.
  (t) => [uniqueIndex('registration_categories_cpf_unique').on(t.categoryId, t.cpf)],
);
