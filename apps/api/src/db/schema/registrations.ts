// Owner: registrations. The tables of registrations, their categories, changes, transfers, check-ins, after-sale rules, the waitlist and teams; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { eventCategories, eventCategoryWaves, events, priceRules } from './events.ts';
import { orders } from './orders.ts';
import { charges } from './payments.ts';
import { staff } from './staff.ts';

/**
 * A proof of a price rule (docs/decisions/0068): a photo or PDF of the student ID, the teacher's or the
 * PCD document, sent by the account before paying and kept off the public media. `enviado` until a paid
 * registration takes it, then `pendente` until staff approve or refuse it by `due_at`. The file is
 * erased after the event with the rest of the health data (a PCD document is health data).
 */
export const priceRuleProofs = pgTable(
  'price_rule_proofs',
  {
    id: serial('id').primaryKey(),
    /** What the draft names it by: random, so one account cannot reach another's proof. */
    token: text('token').notNull().unique(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The file under DATA_DIR/comprovantes, or null once erased. */
    fileName: text('arquivo'),
    mediaType: text('tipo').notNull(),
    bytes: integer('bytes').notNull(),
    registrationId: integer('registration_id').references(() => registrations.id, { onDelete: 'cascade' }),
    ruleId: integer('rule_id').references(() => priceRules.id),
    status: text('situacao').notNull().default('enviado'),
    dueAt: timestamp('prazo', { withTimezone: true }),
    reviewedAt: timestamp('analisado_em', { withTimezone: true }),
    reviewedBy: text('analisado_por'),
    reason: text('motivo'),
    /** A PCD document's own consent (health data, LGPD art. 11 I): the text's version and when. */
    consentVersion: text('consentimento_versao'),
    consentAt: timestamp('consentimento_em', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('price_rule_proofs_status', sql`${t.status} in ('enviado', 'pendente', 'aprovado', 'recusado')`),
    uniqueIndex('price_rule_proofs_registration_unique').on(t.registrationId),
    index('price_rule_proofs_pending_idx').on(t.dueAt).where(sql`${t.status} = 'pendente'`),
  ],
);

/**
 * Teams, assessorias and companies (docs/decisions/0067-teams.md): a captain's group that runners join
 * with its code, at registration or from the captain's invite link. One event's, or the brand's events'
 * for a season (`event_id` null). The name is the team the registration, the ticket, the desk and the
 * timing file show.
 */
export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    /** The event it runs in; null: every event of the brand (an assessoria lasts a season). */
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    name: text('nome').notNull(),
    /** The captain: the account that made it and sees its members' names and distances. */
    captainUserId: integer('capitao_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What runners type or the invite link carries: 8 letters and digits, no look-alikes. */
    joinCode: text('codigo').notNull(),
    /** When the captain stopped new members joining; null: open. */
    closedAt: timestamp('fechada_em', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('teams_code_unique').on(t.joinCode),
    index('teams_captain_idx').on(t.captainUserId),
    index('teams_event_idx').on(t.eventId),
  ],
);

/**
 * A member a captain invited from a list (docs/decisions/0075): the name and e-mail the captain gave,
 * kept only until the person answers (a refusal erases them) or for `TEAM_INVITE_DAYS`; the token of the
 * link in the e-mail is the proof the answer is theirs.
 */
export const teamInvites = pgTable(
  'team_invites',
  {
    id: serial('id').primaryKey(),
    teamId: integer('equipe_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text('nome').notNull(),
    email: text('email').notNull(),
    token: text('token').notNull(),
    status: text('situacao', { enum: ['pendente', 'confirmado'] })
      .notNull()
      .default('pendente'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('respondido_em', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('team_invites_token_unique').on(t.token),
    uniqueIndex('team_invites_team_email_unique').on(t.teamId, sql`lower(${t.email})`),
    index('team_invites_created_idx').on(t.createdAt),
  ],
);

/**
 * Places a team's captain bought in one payment for members to claim (docs/decisions/0073): the charge
 * holds `quantity` places of one category until each is claimed (moved to the member's registration) or
 * the registration deadline closes the batch (what is left refunded or given back to sale).
 */
export const teamPlaceBatches = pgTable(
  'team_place_batches',
  {
    id: serial('id').primaryKey(),
    teamId: integer('equipe_id')
      .notNull()
      .references(() => teams.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id),
    /** The captain's charge: it holds the places not claimed yet. */
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    quantity: integer('quantidade').notNull(),
    /** What one place cost the captain (the lot's price when bought, or the team's share of it). */
    priceCents: integer('preco_centavos').notNull(),
    /** The share of each place the team paid, in percent (docs/decisions/0079; 100: the whole place). */
    sharePercent: integer('percentual').notNull().default(100),
    /** What each member pays when claiming: the rest of the place's price when bought (0: nothing). */
    memberCents: integer('parte_membro_centavos').notNull().default(0),
    /** The secret of the claim link the captain shares (128 bits, base64url). */
    claimToken: text('token_resgate').notNull(),
    /** When the deadline (or the captain) closed it; what was left then, and what went back in money. */
    closedAt: timestamp('encerrado_em', { withTimezone: true }),
    unclaimedAtClose: integer('nao_resgatadas_no_encerramento'),
    refundedCents: integer('devolvido_centavos').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('team_place_batches_charge_unique').on(t.chargeId),
    uniqueIndex('team_place_batches_token_unique').on(t.claimToken),
    index('team_place_batches_team_idx').on(t.teamId),
    index('team_place_batches_open_idx').on(t.eventId).where(sql`${t.closedAt} is null`),
    // The event report reads every batch of an event, closed ones included.
    index('team_place_batches_event_idx').on(t.eventId),
    check('team_place_batches_amounts', sql`${t.quantity} > 0 and ${t.priceCents} >= 0`),
    check(
      'team_place_batches_share',
      sql`${t.sharePercent} between 1 and 100 and ${t.memberCents} >= 0 and (${t.sharePercent} < 100 or ${t.memberCents} = 0)`,
    ),
  ],
);

/**
 * Places of a category reserved by the organiser for a named team at an opening (docs/decisions/0076):
 * the team's members, by its join code, take them without a waiting-room turn or a lottery draw, within
 * the opening's limits; the public never takes them while the quota lasts. `places` is the quota; the
 * places used are the open `place_reservations` marked with its id (counted, never stored).
 */
export const teamQuotas = pgTable(
  'team_quotas',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id),
    teamId: integer('equipe_id')
      .notNull()
      .references(() => teams.id),
    places: integer('vagas').notNull(),
    /** After this instant the unused places go back to the public (null: until the organiser ends it). */
    endsAt: timestamp('ate', { withTimezone: true }),
    /** When the job saw `endsAt` pass and gave the unused places back to the public (pages, waitlist). */
    endedAt: timestamp('encerrada_em', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('team_quotas_category_team_unique').on(t.categoryId, t.teamId),
    index('team_quotas_event_idx').on(t.eventId),
    check('team_quotas_places', sql`${t.places} >= 0`),
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
    /** The team joined with its code (its name copied to `equipe`); null: the free text alone, or none. */
    teamId: integer('equipe_id').references(() => teams.id),
    /**
     * When the runner let their team's captain (or whom the captain sends) collect the kit at the desk
     * with the team's other kits (docs/decisions/0067, later); null: only the runner or their authorised
     * person.
     */
    teamPickupConsentAt: timestamp('retirada_equipe_autorizada_em', { withTimezone: true }),
    /**
     * The team price (docs/decisions/0074): the tier's discount this registration has (0: none yet) and the
     * lots' full prices it counts from; null when it was priced otherwise (no team, a coupon, 60+, a rule).
     */
    teamTierPercent: integer('desconto_equipe_percentual'),
    teamPriceBaseCents: integer('preco_base_equipe_centavos'),
    /**
     * The registration whose referral link brought this one (docs/decisions/0086); null: none, or a link
     * that named no standing paid registration of the same event.
     */
    referredById: integer('indicada_por_id').references((): AnyPgColumn => registrations.id),
    /** When this registration's referral rebate was settled (once), and what went back; null: not yet. */
    referralRebatedAt: timestamp('indicacao_devolvida_em', { withTimezone: true }),
    referralRebateCents: integer('indicacao_devolvida_centavos'),
    /** The team's prepaid places this registration claimed (docs/decisions/0073); null: paid on its own. */
    teamBatchId: integer('lote_vagas_equipe_id').references(() => teamPlaceBatches.id),
    /** A past result's address the runner gave to back their estimate (waves, docs/decisions/0066). */
    pastResultUrl: text('resultado_anterior_url'),
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
    /**
     * The person the runner authorised to collect the kit (name and CPF; docs/decisions/0063, later):
     * personal data, erased with the registration's and never logged. Null: only the runner.
     */
    pickupDelegateName: text('retirada_autorizada_nome'),
    pickupDelegateCpf: text('retirada_autorizada_cpf'),
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
    index('registrations_team_idx').on(t.teamId),
    index('registrations_team_batch_idx').on(t.teamBatchId),
    index('registrations_referred_by_idx').on(t.referredById).where(sql`${t.referredById} is not null`),
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
    /** The start wave the runner was given for this race (docs/decisions/0066); null when it has none. */
    waveId: integer('onda_id').references(() => eventCategoryWaves.id, { onDelete: 'set null' }),
    /** The finish time the runner estimated for this race, in seconds; null when none was given. */
    estimatedSeconds: integer('tempo_estimado_segundos'),
    /** The price rule that priced this race (docs/decisions/0068), or null for the lot's or the 60+ price. */
    priceRuleId: integer('price_rule_id').references(() => priceRules.id),
  },
  // The same CPF cannot hold the same category twice; a cancelled registration holds nothing.
  (t) => [
    index('registration_categories_registration_idx').on(t.registrationId),
    // The runners each wave holds, counted when the next one is given a wave.
    index('registration_categories_wave_idx').on(t.waveId).where(sql`${t.cancelledAt} is null`),
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
    /** Whether a runner may authorise someone else to collect the kit (docs/decisions/0063, later). */
    delegationAllowed: boolean('delegation_allowed').notNull().default(true),
    /** Refused for a registration with the 60+ half price, as many regulations ask. */
    delegationRefusedSeniorHalf: boolean('delegation_refused_senior_half').notNull().default(false),
    /** The item asked at pickup ("1 kg de alimento não perecível"); null: none. */
    pickupItem: text('pickup_item'),
    /** The unit its quantity is counted in at the desk (kg); null: units. */
    pickupItemUnit: text('pickup_item_unit'),
    /** Only when ticked is a kit refused without the item; otherwise it is counted, never required. */
    pickupItemRequired: boolean('pickup_item_required').notNull().default(false),
    /**
     * What happens to a team's prepaid places nobody claimed by the registration deadline
     * (docs/decisions/0073): `devolver` refunds them to the captain, `liberar` gives them back to sale.
     */
    teamUnclaimed: text('equipe_vagas_nao_resgatadas', { enum: ['devolver', 'liberar'] })
      .notNull()
      .default('devolver'),
    /**
     * The team prices (docs/decisions/0074): from `minMembers` standing members of one team, each member's
     * registration costs `percent` less than the lot; earlier members get the difference back.
     */
    teamTiers: jsonb('equipe_faixas')
      .$type<Array<{ minMembers: number; percent: number }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * Referral links (docs/decisions/0086): after `referralMin` registrations paid through a runner's link
     * (and past their 7 days of withdrawal), `referralPercent` of what the runner paid goes back; null: no
     * referral in this event.
     */
    referralMin: integer('indicacao_minimo'),
    referralPercent: integer('indicacao_percentual').notNull().default(0),
    /** Bumped by every save; a save from a form opened at an older version is refused (0025). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    check(
      'event_after_sale_rules_amounts',
      sql`${t.cancelMinHours} >= 0 and ${t.cancelFeeCents} >= 0 and ${t.transferFeeCents} >= 0 and ${t.categoryChangeFeeCents} >= 0 and ${t.cancelKeptPercent} between 0 and 100 and ${t.waitlistOfferHours} > 0`,
    ),
    check(
      'event_after_sale_rules_referral',
      sql`(${t.referralMin} is null or ${t.referralMin} between 1 and 100) and ${t.referralPercent} between 0 and 100`,
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
      enum: ['cancelamento', 'transferencia', 'troca_distancia', 'troca_tamanho', 'diferenca_preco'],
    }).notNull(),
    /**
     * Who asked: the account that bought it, the participant through the link e-mailed to them, or
     * staff in the back office (`loja`, docs/decisions/0060).
     */
    actor: text('actor', { enum: ['comprador', 'participante', 'loja'] }).notNull(),
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
    /**
     * Who started it: the buying account, the participant through their signed link, or staff for the
     * runner (`loja`, docs/decisions/0083).
     */
    actor: text('actor', { enum: ['comprador', 'participante', 'loja'] }).notNull(),
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

/** Kit pickup on race day; the primary key makes a second check-in impossible. */
export const registrationCheckins = pgTable(
  'registration_checkins',
  {
    registrationId: integer('registration_id')
      .primaryKey()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    staffName: text('staff_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The desk that scanned it offline and sent it later (docs/decisions/0063); null when online. */
    desk: text('mesa'),
    /**
     * Who collected the kit: the runner, the person they authorised (named, CPF not kept here), or the
     * team's collector with the team's kits (docs/decisions/0067, later; named).
     */
    collectedBy: text('retirado_por', { enum: ['titular', 'autorizado', 'equipe'] })
      .notNull()
      .default('titular'),
    collectorName: text('retirado_por_nome'),
    /** How much of the event's pickup item was brought (its unit); null: not asked or not brought. */
    itemQuantity: numeric('item_quantidade', { precision: 10, scale: 3, mode: 'number' }),
  },
  (t) => [check('registration_checkins_name', sql`length(${t.staffName}) > 0`)],
);

/**
 * Every kit pickup a desk scanned offline and sent in a batch (docs/decisions/0063), under the id the
 * desk drew for the scan: a batch sent again finds its scans here and is not counted twice. The ledger
 * (`registration_checkins`) keeps one pickup per kit; a scan that found the kit already out stays here
 * as `conflito`, with the pickup it met, so nothing a desk did is merged away or lost.
 */
export const registrationOfflinePickups = pgTable(
  'registration_offline_pickups',
  {
    /** The scan's id, drawn by the desk (a UUID). */
    id: text('id').primaryKey(),
    registrationId: integer('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    desk: text('mesa').notNull(),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    staffName: text('staff_name').notNull(),
    /** When the desk scanned it (its clock, never later than `received_at`). */
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    outcome: text('outcome', { enum: ['registrada', 'conflito', 'recusada'] }).notNull(),
    /** The pickup the scan met (conflito: who, when, which desk) or why it was refused. */
    detail: jsonb('detail').notNull().default({}),
    /** Who collected it and the item brought, as the desk recorded them with the scan. */
    collectedBy: text('retirado_por', { enum: ['titular', 'autorizado'] })
      .notNull()
      .default('titular'),
    itemQuantity: numeric('item_quantidade', { precision: 10, scale: 3, mode: 'number' }),
  },
  (t) => [index('registration_offline_pickups_registration_idx').on(t.registrationId)],
);

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

/**
 * One row per write to what a desk's snapshot holds (database triggers on registrations, their
 * categories, check-ins, transfers and the after-sale rules; migration 0051): the event's count of them
 * is the snapshot's version, so its ETag answers 304 without reading a registration (docs/decisions/0063,
 * later). Insert-only, so writes of one event never wait for each other on it, and a count (unlike a
 * max of ids) moves whenever any of them commits.
 */
export const eventDeskChanges = pgTable(
  'event_desk_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key: the triggers also run while an event's rows are deleted with it.
    eventId: integer('event_id').notNull(),
  },
  (t) => [index('event_desk_changes_event_idx').on(t.eventId)],
);
