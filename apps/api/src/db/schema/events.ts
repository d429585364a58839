import { sql } from 'drizzle-orm';
import {
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
  },
  (t) => [
    index('event_categories_day_idx').on(t.dayId),
    check('event_categories_places_non_negative', sql`${t.placesLeft} >= 0`),
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
  (t) => [
    index('place_reservations_charge_idx').on(t.chargeId),
    // The places a category's open reservations hold, counted on every registration.
    index('place_reservations_open_category_idx').on(t.categoryId).where(sql`${t.releasedAt} is null`),
  ],
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
    /**
     * When the participant's personal data was anonymised, SALES_RETENTION_YEARS after the year the
     * event ended (`privacy.sales-retention`): name replaced, CPF, contacts and address blanked, birth
     * date cut to its year; categories, kit size and amounts stay.
     */
    personalDataErasedAt: timestamp('dados_pessoais_apagados_em', { withTimezone: true }),
    /** The PCD answer's own consent (LGPD art. 11 I): the text's version (core's PCD_CONSENT) and when. */
    pcdConsentVersion: text('pcd_consentimento_versao'),
    pcdConsentAt: timestamp('pcd_consentimento_em', { withTimezone: true }),
    /** Opt-in to WhatsApp messages at `phone` (core's WHATSAPP_CONSENT): version and when; null without. */
    whatsappConsentVersion: text('whatsapp_consentimento_versao'),
    whatsappConsentAt: timestamp('whatsapp_consentimento_em', { withTimezone: true }),
    /** When the WhatsApp kit-pickup reminder was queued, so the daily job sends it once. */
    kitReminderSentAt: timestamp('lembrete_kit_em', { withTimezone: true }),
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
    /**
     * The nonce the links e-mailed to the participant are signed with (docs/decisions/0041): drawing a
     * new one revokes every link sent before.
     */
    participantLinkNonce: text('participant_link_nonce')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
  },
  (t) => [
    index('registrations_account_cpf_idx').on(t.accountUserId, t.cpf),
    uniqueIndex('registrations_charge_event_cpf_unique').on(t.chargeId, t.eventId, t.cpf),
    index('registrations_order_idx').on(t.orderId),
    // An opening's gate counts the event's registrations of one CPF (and the live view all of them).
    index('registrations_event_cpf_idx').on(t.eventId, t.cpf),
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
    /** The bib (número de peito) staff assigned for this race, or null before they do. */
    bib: integer('numero_peito'),
  },
  // The same CPF cannot hold the same category twice; a cancelled registration holds nothing.
  (t) => [
    index('registration_categories_registration_idx').on(t.registrationId),
    uniqueIndex('registration_categories_cpf_unique')
      .on(t.categoryId, t.cpf)
      .where(sql`${t.cancelledAt} is null`),
  ],
);

/**
 * The organiser's after-sale rules of an event (docs/decisions/0035-runner-after-sale.md); an event
 * without a row follows `DEFAULT_AFTER_SALE_RULES` (@passada/core/after-sale). A day left null means
 * the event's registration deadline. Owned by the registrations module, which enforces them.
 */
export const eventAfterSaleRules = pgTable(
  'event_after_sale_rules',
  {
    eventId: integer('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    cancelMinHours: integer('cancel_min_hours').notNull(),
    cancelAfterWindow: text('cancel_after_window', { enum: ['nao', 'taxa', 'percentual'] }).notNull(),
    cancelFeeCents: integer('cancel_fee_cents').notNull(),
    cancelKeptPercent: integer('cancel_kept_percent').notNull(),
    transferAllowed: boolean('transfer_allowed').notNull(),
    transferUntil: date('transfer_until'),
    transferFeeCents: integer('transfer_fee_cents').notNull(),
    categoryChangeAllowed: boolean('category_change_allowed').notNull(),
    categoryChangeUntil: date('category_change_until'),
    categoryChangeFeeCents: integer('category_change_fee_cents').notNull(),
    categoryChangeRefundsDifference: boolean('category_change_refunds_difference').notNull(),
    sizeChangeAllowed: boolean('size_change_allowed').notNull(),
    sizeChangeUntil: date('size_change_until'),
    waitlistOfferHours: integer('waitlist_offer_hours').notNull(),
    /** The categories with a waitlist when sold out (docs/decisions/0042-waitlist.md). */
    waitlistCategoryIds: integer('waitlist_category_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** Bumped by every save; a save from a form opened at an older version is refused (0025). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    check(
      'event_after_sale_rules_amounts',
      sql`${t.cancelMinHours} >= 0 and ${t.cancelFeeCents} >= 0 and ${t.transferFeeCents} >= 0 and ${t.categoryChangeFeeCents} >= 0 and ${t.cancelKeptPercent} between 0 and 100 and ${t.waitlistOfferHours} > 0`,
    ),
  ],
);

/**
 * What a runner (or staff) changed on a registration after the sale: the history the organiser sees
 * and the audit of each change, with the money it moved (docs/decisions/0035-runner-after-sale.md).
 */
export const registrationChanges = pgTable(
  'registration_changes',
  {
    id: serial('id').primaryKey(),
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['cancelamento', 'transferencia', 'troca_distancia', 'troca_tamanho'],
    }).notNull(),
    /** Who asked: the account that bought it, or the participant through the link e-mailed to them. */
    actor: text('actor', { enum: ['comprador', 'participante'] }).notNull(),
    /** What changed, without personal data beyond names (before/after category, size, holder). */
    detail: jsonb('detail').notNull().default({}),
    feeCents: integer('fee_cents').notNull().default(0),
    refundCents: integer('refund_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('registration_changes_registration_idx').on(t.registrationId),
    // The charge that paid a transfer or a dearer distance (`cobranca`): a paid charge's history, and
    // the back office's money figures finding the charges of that purpose.
    index('registration_changes_charge_idx').on(sql`((${t.detail}->>'cobranca')::int)`),
  ],
);

/**
 * A registration handed to another runner (docs/decisions/0041-runner-transfer-changes-and-participant-links.md):
 * the holder names the new runner, who completes it through the link e-mailed to them (a random token,
 * stored only as its SHA-256) and pays the fee and any price difference by a 'registration' charge.
 * At most one pending transfer per registration; an unpaid one ends at `expires_at`.
 */
export const registrationTransfers = pgTable(
  'registration_transfers',
  {
    id: serial('id').primaryKey(),
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status', { enum: ['pendente', 'concluida', 'cancelada', 'expirada'] }).notNull(),
    /** Who started it: the buying account, or the participant through their signed link. */
    actor: text('actor', { enum: ['comprador', 'participante'] }).notNull(),
    /** The new runner as the holder named them; the CPF must be the one who completes it. */
    toName: text('to_name').notNull(),
    toCpf: text('to_cpf').notNull(),
    toEmail: text('to_email').notNull(),
    /** The holder when it was asked, told by e-mail when it completes. */
    fromName: text('from_name').notNull(),
    fromEmail: text('from_email').notNull(),
    /** The rules' fee when it was asked (the difference of a 60+ price is priced when paying). */
    feeCents: integer('fee_cents').notNull(),
    /** The charge that paid it (set when the charge is created, kept when paid). */
    chargeId: integer('charge_id').references(() => charges.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('registration_transfers_one_pending')
      .on(t.registrationId)
      .where(sql`${t.status} = 'pendente'`),
    index('registration_transfers_charge_idx').on(t.chargeId),
  ],
);
