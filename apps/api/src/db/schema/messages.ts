import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** How a message went out. */
export const messageChannels = ['email', 'whatsapp'] as const;
/** Where a message stands: `failed` may still become `sent` when its job tries again. */
export const messageStatuses = ['sent', 'failed'] as const;

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('message_log_job_recipient_idx').on(t.jobId, t.channel, t.recipient),
    index('message_log_created_at_idx').on(t.createdAt),
    index('message_log_failed_idx').on(t.updatedAt).where(sql`${t.status} = 'failed'`),
    check('message_log_attempts_positive', sql`${t.attempts} > 0`),
  ],
);
