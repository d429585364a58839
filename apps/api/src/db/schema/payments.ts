// Owner: payments. The tables of charges, their refunds and payment events; only this module writes them (docs/architecture.md §9).
import { PIX_CHARGE_STATUSES } from '@passada/core/contracts/payments';
import { sql } from 'drizzle-orm';
import {
  check,
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

/**
 * `gratuito`: nothing to pay (a free registration, a cart whose total is zero); the charge is written
 * already CONCLUIDA, never reaches a provider and never moves again (docs/decisions/0028).
 */
export const chargeMethods = ['pix', 'cartao', 'gratuito'] as const;

export const chargePurposes = ['order', 'registration', 'exchange', 'team_places'] as const;

/** API Pix statuses, plus the card outcomes and our own states: the contract's list, one source. */
export const chargeStatuses = PIX_CHARGE_STATUSES;

/** Where a provider answer in the payment event log came from. */
export const paymentEventSources = [
  'webhook',
  'poll',
  'reconcile',
  'card_notification',
  'refund',
  'create',
] as const;

/**
 * One payment attempt. It is bound on the server to what it pays for (`purpose` + `draft`) and to
 * the amount the server computed; it pays for exactly one order or registration.
 */
export const charges = pgTable(
  'charges',
  {
    id: serial('id').primaryKey(),
    /** Pix txid (26–35 alphanumerics), or our own id of a card charge (same rule). */
    txid: text('txid').notNull().unique(),
    method: text('method', { enum: chargeMethods }).notNull(),
    provider: text('provider').notNull(),
    purpose: text('purpose', { enum: chargePurposes }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: chargeStatuses }).notNull(),
    /** What the charge pays for, as computed by the server (order or registration draft). */
    draft: jsonb('draft').notNull(),
    /** Set once the provider created the Pix: until then the charge may exist only on our side. */
    pixCopiaECola: text('pix_copia_e_cola'),
    installments: integer('installments').notNull().default(1),
    /** Pix: the provider's own deadline once it answered. Card: when the held units may be reviewed. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    endToEndId: text('end_to_end_id'),
    /** Card: the browser's key for this payment attempt, stored before the provider is called. */
    idempotencyKey: text('idempotency_key'),
    /** Card: the provider's charge id, once known. */
    providerChargeId: text('provider_charge_id'),
    /** Card: the provider's own status name (waiting, approved, paid, unpaid…). */
    providerStatus: text('provider_status'),
    installmentValueCents: integer('installment_value_cents'),
    /** Shown to the buyer: why a card was refused or why the money was returned. */
    reason: text('reason'),
    /** Something staff must look at (a paid card later refunded or contested, a payment we could not place). */
    attention: text('attention'),
    /**
     * When the draft's personal data (names, e-mail, CPF, birth date, phone, address) was cleared (LGPD):
     * the charge can then only be refunded, never fulfilled (docs/decisions/0019-charge-draft-personal-data.md).
     */
    personalDataClearedAt: timestamp('personal_data_cleared_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    index('charges_status_expires_idx').on(t.status, t.expiresAt),
    index('charges_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('charges_user_idempotency_key_idx').on(t.userId, t.idempotencyKey),
    // The dashboard's figures: the charges paid since a day.
    index('charges_paid_at_idx').on(t.paidAt),
    // The few charges staff must look at (listNeedingAttention), out of every charge ever made.
    index('charges_attention_idx')
      .on(t.id)
      .where(sql`${t.attention} is not null or (${t.method} = 'cartao' and ${t.status} = 'FALHOU')`),
  ],
);

/**
 * Money sent back to a payer: a whole charge (a late Pix, a cancellation) or a part of it (a withdrawn
 * item, a return, docs/decisions/0036). A charge may have several; their sum never exceeds what was
 * paid, checked under the charge's row lock (`refundPart`).
 */
export const chargeRefunds = pgTable(
  'charge_refunds',
  {
    id: serial('id').primaryKey(),
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    /** Ours, sent to the provider: asking again with it never refunds twice. */
    refundId: text('refund_id').notNull().unique(),
    amountCents: integer('amount_cents').notNull(),
    /**
     * PENDENTE until the provider answered; ENVIANDO while a card refund is being asked for (Efí keeps no
     * refund id for cards, so an unanswered one is never sent again by itself); then the provider's answer
     * (EM_PROCESSAMENTO, DEVOLVIDO, NAO_REALIZADO).
     */
    status: text('status').notNull(),
    reason: text('reason').notNull(),
    /** Who asked for it: the staff member's name, or null for the shop's own rules (a buyer's withdrawal). */
    requestedBy: text('requested_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [
    index('charge_refunds_charge_idx').on(t.chargeId),
    check('charge_refunds_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/** Every answer a provider gave about a charge, without personal data: "where is my money". */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    chargeId: integer('charge_id')
      .notNull()
      .references(() => charges.id),
    source: text('source', { enum: paymentEventSources }).notNull(),
    /** What it said in one word (the provider's status, `error`, `refunded`…). */
    kind: text('kind').notNull(),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('payment_events_charge_idx').on(t.chargeId)],
);
