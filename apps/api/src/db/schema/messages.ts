// Owner: messages. The tables of messages after they leave: the log, WhatsApp opt-outs and the e-mails' logo; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { staff } from './staff.ts';

/** How a message went out. */
export const messageChannels = ['email', 'whatsapp'] as const;

/**
 * Where a message stands: `failed` may still become `sent` when its job tries again; `opted_out` was
 * not sent because the number asked to stop (`whatsapp_opt_outs`).
 */
export const messageStatuses = ['sent', 'failed', 'opted_out'] as const;

/**
 * What the WhatsApp webhook said of a message the Cloud API accepted, in the order it can only move
 * forward: `sent` (left Meta), `delivered` (on the phone), `read`, or `failed` (never delivered).
 */
export const deliveryStates = ['sent', 'delivered', 'read', 'failed'] as const;

/**
 * One row per message the shop tried to send (docs/decisions/0045): who to, by which job, whether it
 * went, how many tries and why the last one failed. No personal data beyond the recipient's address
 * (no names, no bodies); rows older than MESSAGE_LOG_RETENTION_DAYS are deleted by `privacy.retention`.
 */
export const messageLog = pgTable(
  'message_log',
  {
    id: serial('id').primaryKey(),
    channel: text('channel', { enum: messageChannels }).notNull(),
    /** The job that sent it (`mail.order-confirmation`, `whatsapp.send`), or `direto` outside a job. */
    kind: text('kind').notNull(),
    /** The e-mail address or the WhatsApp number (digits with country code). */
    recipient: text('recipient').notNull(),
    /** pg-boss's job id: a retry of the job updates the same row. Null outside a job. */
    jobId: text('job_id'),
    status: text('status', { enum: messageStatuses }).notNull(),
    attempts: integer('attempts').notNull().default(1),
    /** The last failure: the error's class, code and the service's answer, at most 500 characters. */
    error: text('error'),
    /** The id the service answered (the WhatsApp `wamid`), which the delivery webhook names. */
    providerMessageId: text('provider_message_id'),
    /** The delivery state the webhook last reported (WhatsApp only); null until the first report. */
    delivery: text('delivery', { enum: deliveryStates }),
    /** When Meta says that state was reached. */
    deliveryAt: timestamp('delivery_at', { withTimezone: true }),
    /** Why delivery failed: the webhook's error code and title, at most 500 characters. */
    deliveryError: text('delivery_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('message_log_job_recipient_idx').on(t.jobId, t.channel, t.recipient),
    uniqueIndex('message_log_provider_message_idx').on(t.providerMessageId),
    index('message_log_created_at_idx').on(t.createdAt),
    index('message_log_failed_idx').on(t.updatedAt).where(sql`${t.status} = 'failed'`),
    check('message_log_attempts_positive', sql`${t.attempts} > 0`),
  ],
);

/**
 * A WhatsApp number that asked to stop (LGPD art. 8 §5: consent revoked at any time, by an express
 * request): the record of the revocation, with the words it came in and the incoming message's id, and
 * the gate the WhatsApp provider checks before every send (docs/decisions/0050). Kept while the shop
 * keeps any consent of that number: deleting the row would let messages start again.
 */
export const whatsappOptOuts = pgTable('whatsapp_opt_outs', {
  /** The number as the Cloud API writes it: digits with the country code (`5585999990000`). */
  phone: text('phone').primaryKey(),
  /** What the person wrote or tapped (`PARAR`), at most 60 characters, or the reason staff gave. */
  request: text('request').notNull(),
  /**
   * The incoming message's `wamid`: a re-delivered webhook finds it already recorded. Null when staff
   * recorded a request that came another way (`staff_id`).
   */
  messageId: text('message_id'),
  /** When the person asked (the webhook's timestamp, or when staff recorded it). */
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  /** The staff member who recorded it from the back office (the reason in `request`); null for PARAR. */
  staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The shop's mark in the e-mails' header, when staff sent one (docs/decisions/0045, later): the media
 * storage's key of its 128 px PNG. One row at most; none: the storefront's default mark.
 */
export const mailBrand = pgTable(
  'mail_brand',
  {
    id: integer('id').primaryKey().default(1),
    logoKey: text('logo_key').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('mail_brand_single_row', sql`${t.id} = 1`)],
);
