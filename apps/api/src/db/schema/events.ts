// Owner: events. The tables of events, days, categories and lots, kit sizes, places and kit shirts held for a charge; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  boolean,
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
  /**
   * The NFS-e Padrão Nacional's codes of this event's registrations: the national service code
   * (cTribNac, 6 digits) and the NBS (9 digits). Empty uses the shop's fiscal settings, each on its own
   * (docs/decisions/0059, later).
   */
  nfseNationalCode: text('nfse_codigo_tributacao_nacional').notNull().default(''),
  nfseNbs: text('nfse_nbs').notNull().default(''),
  /** Staff closed registrations by hand before the deadline (reopening sets it back to false). */
  registrationsClosed: boolean('inscricoes_fechadas').notNull().default(false),
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
    /** Age limits in full years on the category's race day (core's ageLimitProblem); null is none. */
    minAge: integer('idade_minima'),
    maxAge: integer('idade_maxima'),
    /**
     * A relay (revezamento, docs/decisions/0078): one entry of this many runners (2, 4 or 8), bought by the
     * team in one payment at the category's price, each runner with a place of their own; null: individual.
     */
    relayLegs: integer('revezamento_corredores'),
  },
  (t) => [
    index('event_categories_day_idx').on(t.dayId),
    check('event_categories_places_non_negative', sql`${t.placesLeft} >= 0`),
    check('event_categories_relay_legs', sql`${t.relayLegs} is null or ${t.relayLegs} in (2, 4, 8)`),
    check(
      'event_categories_age_limits',
      sql`${t.minAge} is null or ${t.maxAge} is null or ${t.minAge} <= ${t.maxAge}`,
    ),
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

/**
 * A category's price rules by who the runner is (docs/decisions/0068): students, teachers, PCD or a
 * named list (a club, a social quota) pay half, a fixed price or nothing, up to a cap in places or in
 * per cent of the category, until a day; with a proof staff review when the rule asks one. The 60+
 * half price is the law's and stays computed from the birth date. Archived rules price nothing new.
 */
export const priceRules = pgTable(
  'price_rules',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id, { onDelete: 'cascade' }),
    /** estudante, professor, pcd or lista (a named list of CPFs). */
    audience: text('publico').notNull(),
    name: text('nome').notNull(),
    /** meia (half the lot's price), preco_fixo (`fixedPriceCents`) or gratis. */
    discount: text('desconto').notNull(),
    fixedPriceCents: integer('preco_fixo_cents'),
    /** At most this many places held under the rule, or null. */
    capPlaces: integer('limite_vagas'),
    /** At most this per cent of the category's capacity (1–100), or null. */
    capPercent: integer('limite_percentual'),
    /** Last day (America/Fortaleza) a registration may take it, or null. */
    untilDate: date('ate_data'),
    proofRequired: boolean('exige_comprovante').notNull().default(true),
    /** How long staff have to review a proof once the registration is paid. */
    reviewHours: integer('prazo_analise_horas').notNull().default(72),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    index('price_rules_event_idx').on(t.eventId),
    check('price_rules_audience', sql`${t.audience} in ('estudante', 'professor', 'pcd', 'lista')`),
    check('price_rules_discount', sql`${t.discount} in ('meia', 'preco_fixo', 'gratis')`),
    check(
      'price_rules_fixed_price',
      sql`(${t.discount} = 'preco_fixo') = (${t.fixedPriceCents} is not null) and coalesce(${t.fixedPriceCents}, 0) >= 0`,
    ),
    check('price_rules_cap_places', sql`${t.capPlaces} is null or ${t.capPlaces} >= 0`),
    check('price_rules_cap_percent', sql`${t.capPercent} is null or ${t.capPercent} between 1 and 100`),
  ],
);

/** The CPFs a `lista` rule admits (club members, a social quota), imported by the organiser as a CSV. */
export const priceRuleListEntries = pgTable(
  'price_rule_list_entries',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => priceRules.id, { onDelete: 'cascade' }),
    cpf: text('cpf').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.cpf] })],
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
    /** The price rule the place was sold under (its cap counts the unreleased ones), or null. */
    priceRuleId: integer('price_rule_id').references(() => priceRules.id),
    /**
     * The team's quota the place was taken from (`team_quotas`, the registrations module's), or null: an
     * open one counts as used, a released one goes back to the quota while it lasts (docs/decisions/0076).
     */
    teamQuotaId: integer('team_quota_id'),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    index('place_reservations_charge_idx').on(t.chargeId),
    index('place_reservations_open_quota_idx')
      .on(t.teamQuotaId)
      .where(sql`${t.teamQuotaId} is not null and ${t.releasedAt} is null`),
    index('place_reservations_open_rule_idx')
      .on(t.priceRuleId)
      .where(sql`${t.priceRuleId} is not null and ${t.releasedAt} is null`),
    // The places a category's open reservations hold, counted on every registration.
    index('place_reservations_open_category_idx').on(t.categoryId).where(sql`${t.releasedAt} is null`),
  ],
);

/**
 * A category's start waves (ondas de largada, docs/decisions/0066), fastest first by `position`: each takes
 * runners whose estimate is at most `upToSeconds` while it holds fewer than `capacity`, then passes them to
 * the next; the last has neither (it takes the rest). Who holds a wave is the registrations module's
 * (`registration_categories.onda_id`): cancelled runners free their slot without anyone counting down.
 */
export const eventCategoryWaves = pgTable(
  'event_category_waves',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id, { onDelete: 'cascade' }),
    position: integer('posicao').notNull(),
    name: text('nome').notNull(),
    upToSeconds: integer('ate_segundos'),
    capacity: integer('capacidade'),
  },
  (t) => [index('event_category_waves_category_idx').on(t.categoryId, t.position)],
);
