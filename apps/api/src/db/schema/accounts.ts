// Owner: accounts. The tables of customers, their sign-in tokens, devices, addresses and notices; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    /** argon2id hash; never leaves the server. */
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the account is deleted (LGPD): personal fields are anonymised, the row stays for records. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * When the owner opened the confirmation link sent to `email` (docs/decisions/0057); null until then
     * and again after the e-mail changes. Data given without an account is matched to the account by
     * e-mail only while this is set.
     */
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_unique').on(t.email),
  ],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId)],
);

/**
 * Browsers that signed in to an account (OWASP device cookies, docs/decisions/0024-device-cookies-login.md):
 * the cookie carries the user id and a random nonce, stored here as its SHA-256 only. A sign-in attempt
 * carrying a live one is judged by that device's own failures, not by the account's or the address's.
 */
export const loginDevices = pgTable(
  'login_devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last sign-in through this device; it stays trusted LOGIN_DEVICE_TTL_DAYS after it. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_devices_user_idx').on(t.userId),
    index('login_devices_last_used_idx').on(t.lastUsedAt),
  ],
);

/** Failed logins, kept in the database so the lockout holds across server processes. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    /** Lower-cased username or e-mail that was tried. */
    account: text('account').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set when the attempt carried a trusted device cookie: then it counts for that device only, never for
     * the account's or the address's lock-out of untrusted browsers.
     */
    deviceId: integer('device_id').references(() => loginDevices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('login_failures_account_idx').on(t.account, t.at),
    index('login_failures_ip_idx').on(t.ip, t.at),
    index('login_failures_device_idx').on(t.deviceId, t.at),
  ],
);

/**
 * One-time sign-in links, e-mailed when a blocked attempt (too many failures from its address or on its
 * account) had the right password. Stored as the SHA-256 of the token; used once; short-lived.
 */
export const loginLinks = pgTable(
  'login_links',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_links_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Links that confirm an account's e-mail (docs/decisions/0057): the token's SHA-256 only, the address it
 * was sent to (a link for an address the account no longer has confirms nothing), single use, expiring.
 * A row is written when the link is asked for; the mail job puts the hash of the token it mails.
 */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_confirmations_user_idx').on(t.userId, t.createdAt)],
);

export const passwordResets = pgTable('password_resets', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    /** 8 digits, no hyphen. */
    zipCode: text('zip_code').notNull(),
    state: text('state').notNull(),
    city: text('city').notNull(),
    neighborhood: text('neighborhood').notNull(),
    street: text('street').notNull(),
    /** The house number, or 'S/N'; empty on addresses kept before it had a field of its own. */
    number: text('number').notNull().default(''),
    complement: text('complement').notNull().default(''),
    phone: text('phone').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId),
    // Exactly one primary address per user is kept by the service; this makes two impossible.
    uniqueIndex('addresses_one_primary').on(t.userId).where(sql`${t.isPrimary}`),
  ],
);

/**
 * Security notices owed to an account (e-mail changed, password changed): the address to write to is
 * kept here, not in the job's payload, so the queue holds ids only. Deleted by the retention job.
 */
export const accountNotices = pgTable(
  'account_notices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'email_changed' | 'password_changed'. */
    kind: text('kind').notNull(),
    /** Where the notice goes: the address the account had when it happened. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('account_notices_user_idx').on(t.userId)],
);

/**
 * Fixed-window request counters (sign-ups and reset e-mails per IP): one row per key and window,
 * incremented with one upsert, so every server process on the database shares the same count.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
