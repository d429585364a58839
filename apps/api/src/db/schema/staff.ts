// Owner: staff. The tables of staff accounts, sessions, 2FA, the sign-in throttle, staff-event assignments and the audit log; only this module writes them (docs/architecture.md §9).
import { STAFF_ROLES } from '@passada/core/contracts/painel';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { events } from './events.ts';

/** Back-office roles (docs/product.md §6, core's ROLE_PERMISSIONS says what each may do). */
export const staffRoles = STAFF_ROLES;

/** Staff accounts live apart from customers: a customer token can never open the back office. */
export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: staffRoles }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Base32 TOTP secret; set when the person starts the set-up, trusted only once `totp_enabled`. */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last TOTP time step accepted, so one code cannot sign in twice. */
    totpLastStep: integer('totp_last_step'),
    active: boolean('active').notNull().default(true),
    /**
     * No longer written: failures count per e-mail in `staff_login_throttle`, so an unknown e-mail locks
     * like a known one (docs/decisions/0023). Kept because columns are never dropped.
     */
    failedLogins: integer('failed_logins').notNull().default(0),
    /** No longer written (see failedLogins). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_email_unique').on(t.email)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    /** SHA-256 of the opaque token, as for customers (docs/architecture.md §4). */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_sessions_staff_idx').on(t.staffId)],
);

/**
 * Failed secret checks per key (docs/decisions/0023): `login:<e-mail>` for sign-in, whether or not the
 * account exists, and `conta:<staff id>` for the codes and passwords a signed-in person types. Each
 * attempt counts before it is checked and a success deletes the row; `failures` starts again once the
 * window or the lock is over.
 */
export const staffLoginThrottle = pgTable(
  'staff_login_throttle',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('staff_login_throttle_window_idx').on(t.windowStart)],
);

/** One-time recovery codes for two-step sign-in, stored as SHA-256 (they are random, not chosen). */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_recovery_codes_hash_unique').on(t.staffId, t.codeHash)],
);

/**
 * The events a `checkin` volunteer may check in (docs/decisions/0032): the guard refuses the others.
 * Other roles check in every event and have no rows here.
 */
export const staffEvents = pgTable(
  'staff_events',
  {
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.eventId] }), index('staff_events_event_idx').on(t.eventId)],
);

/** Every change made in the back office: who, when, what, and the record before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    /** Kept as written so the entry still says who after the account is gone. */
    staffEmail: text('staff_email').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_entity_idx').on(t.entity, t.entityId)],
);
