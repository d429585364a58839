import { PIX_CHARGE_STATUSES } from '@passada/core/contracts/payments';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

export const chargeMethods = ['pix', 'cartao'] as const;
export const chargePurposes = ['order', 'registration'] as const;
/** API Pix statuses, plus the card outcomes and our own expiry: the contract's list, one source. */
export const chargeStatuses = PIX_CHARGE_STATUSES;

/**
 * One payment attempt. It is bound on the server to what it pays for (`purpose` + `draft`) and to
 * the amount the server computed; it pays for exactly one order or registration.
 */
export const charges = pgTable(
  'charges',
  {
    id: serial('id').primaryKey(),
    /** Pix txid (26–35 alphanumerics) or the card provider's charge id. */
    txid: text('txid').notNull().unique(),
    method: text('method', { enum: chargeMethods }).notNull(),
    provider: text('provider').notNull(),
    purpose: text('purpose', { enum: chargePurposes }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: chargeStatuses }).notNull(),
    /** What the charge pays for, as computed by the server (order or registration draft). */
    draft: jsonb('draft').notNull(),
    pixCopiaECola: text('pix_copia_e_cola'),
    installments: integer('installments').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    endToEndId: text('end_to_end_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('charges_status_expires_idx').on(t.status, t.expiresAt)],
);
