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
import { orders } from './orders.ts';
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
  /** Where the kit (race shirt and bib) is picked up. */
  kitPickupPlace: text('kit_local_retirada').notNull().default(''),
  /** The pickup dates and hours, one line each ("04/12 (sex), 10h às 20h"). */
  kitPickupHours: text('kit_horarios_retirada').notNull().default(''),
  /** The event's own termo de responsabilidade; empty means the store's standard text. */
  terms: text('termo_responsabilidade').notNull().default(''),
  /** The event offers registration as a person with disabilities (PCD). */
  offersPcd: boolean('oferece_pcd').notNull().default(false),
  /** Last change of what the event page shows; the sitemap's lastmod. A write that edits the event sets it. */
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Bumped by every staff edit of the event (its days, categories, lots and kit sizes too); a save
   * from a form opened at an older version is refused. Sales change places, never this.
   */
  version: integer('version').notNull().default(1),
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

/** Race shirt sizes of an event's kit and how many are left; one shirt per registration. */
export const eventKitSizes = pgTable(
  'event_kit_sizes',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    size: text('tamanho').notNull(),
    /** Shirts left; decremented atomically when a charge reserves one, like places. */
    left: integer('quantidade_disponivel').notNull(),
    position: integer('posicao').notNull().default(0),
  },
  (t) => [
    uniqueIndex('event_kit_sizes_event_size_unique').on(t.eventId, t.size),
    check('event_kit_sizes_left_non_negative', sql`${t.left} >= 0`),
  ],
);

/** Price periods (lotes) of a category, in order; after the last one the category's own price applies. */
export const categoryLots = pgTable(
  'category_lots',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id, { onDelete: 'cascade' }),
    position: integer('posicao').notNull(),
    name: text('nome').notNull(),
    priceCents: integer('preco_cents').notNull(),
    /** Last day (America/Fortaleza) of the lot, or null. */
    untilDate: date('ate_data'),
    /** The lot ends when this many places of the category are sold (held ones count), or null. */
    untilCount: integer('ate_inscricoes'),
  },
  (t) => [index('category_lots_category_idx').on(t.categoryId, t.position)],
);

/** Kit shirts held for a charge until it is paid, refused or expires. */
export const kitReservations = pgTable(
  'kit_reservations',
  {
    id: serial('id').primaryKey(),
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    kitSizeId: integer('kit_size_id')
      .notNull()
      .references(() => eventKitSizes.id),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [index('kit_reservations_charge_idx').on(t.chargeId)],
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
    /**
     * The charge that paid for it. Not unique: a cart's charge pays for several participants (one row
     * each); the same person twice for one event in one charge is refused (index below).
     */
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    /** The shop order it was paid with (a cart with products and registrations); null on the direct path. */
    orderId: integer('order_id').references(() => orders.id),
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
    /** What a discount coupon took off (`couponCode`), already out of `total_cents`. */
    discountCents: integer('discount_cents').notNull().default(0),
    couponCode: text('coupon_code'),
    /** The shirt size chosen (copied: the event's sizes may be renamed later). */
    kitSize: text('tamanho_camisa'),
    team: text('equipe'),
    emergencyName: text('contato_emergencia_nome'),
    emergencyPhone: text('contato_emergencia_telefone'),
    pcd: boolean('pcd').notNull().default(false),
    /**
     * When the PCD answer (health data, LGPD art. 11) was erased, `PCD_RETENTION_DAYS_AFTER_EVENT` days
     * after the event ended, by the `privacy.health-data` job; the registration stays.
     */
    pcdErasedAt: timestamp('pcd_erased_at', { withTimezone: true }),
    /** Hash of the termo de responsabilidade text accepted, and when. */
    termsVersion: text('termo_versao'),
    termsAcceptedAt: timestamp('termo_aceito_em', { withTimezone: true }),
    /** Half price (60+) applied to some category: staff check a document at kit pickup. */
    seniorDiscount: boolean('meia_entrada').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set when staff cancelled it (its payment returned): its places and shirt went back, and it no
     * longer holds its categories for the CPF (docs/decisions/0022-registration-cancellation.md).
     */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Why staff cancelled it (the buyer's withdrawal, the event called off…), when they said. */
    cancelReason: text('cancel_reason'),
    /**
     * The random part of the kit-pickup QR code, signed with CHECKIN_TOKEN_SECRET together with the
     * registration and event ids (docs/decisions/0026). The database draws it (122 random bits of a
     * v4 UUID), for new rows and, when the column was added, for every existing one.
     */
    checkinNonce: text('checkin_nonce').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
  },
  (t) => [
    index('registrations_account_cpf_idx').on(t.accountUserId, t.cpf),
    uniqueIndex('registrations_charge_event_cpf_unique').on(t.chargeId, t.eventId, t.cpf),
    index('registrations_order_idx').on(t.orderId),
  ],
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
    /** The lot that priced it, when one was in force. */
    lotName: text('lote'),
    /** Copied from its registration when cancelled, so the index below can leave it out. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  // The same CPF cannot hold the same category twice; a cancelled registration holds nothing.
  (t) => [
    uniqueIndex('registration_categories_cpf_unique')
      .on(t.categoryId, t.cpf)
      .where(sql`${t.cancelledAt} is null`),
  ],
);
