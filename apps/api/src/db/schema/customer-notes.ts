// Owner: accounts. The notes and tags staff keep on a customer (a file of its own because a note names the staff member, and staff's tables point at events, which point at accounts); only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { staff } from './staff.ts';

/**
 * What the shop's staff wrote about a customer on the back office's customer screen (docs/decisions/0080):
 * one line per note, never edited, deleted by staff or with the account's personal data. The person
 * receives them in their data download (LGPD art. 18 II).
 */
export const customerNotes = pgTable(
  'customer_notes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('texto').notNull(),
    /** Who wrote it, as the staff member was named then (the staff row may be gone later). */
    authorName: text('autor').notNull(),
    authorId: integer('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_notes_user_idx').on(t.userId),
    check('customer_notes_text', sql`char_length(${t.text}) between 1 and 1000`),
  ],
);

/** A customer's tags (`vip`, `assessoria`, …): a set per customer, added and removed one by one. */
export const customerTags = pgTable(
  'customer_tags',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tag: text('etiqueta').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tag] }),
    index('customer_tags_tag_idx').on(t.tag),
    check('customer_tags_tag', sql`char_length(${t.tag}) between 1 and 40`),
  ],
);
