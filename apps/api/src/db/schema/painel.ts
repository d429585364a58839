// Owner: painel. The tables of the back office: uploaded photos; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import { check, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { photoStatuses } from './catalog.ts';

/**
 * Every photo uploaded in the back office, from the moment its original is stored until it is removed:
 * the queue's job `photos.process` reads the original `<folder>/<name>.original`, writes the six resized
 * files and marks it `pronta` (docs/decisions/0027).
 */
export const photos = pgTable(
  'photos',
  {
    id: serial('id').primaryKey(),
    /** `produtos`, `eventos` or `banners` (the home's, docs/decisions/0034): the first part of the storage keys. */
    folder: text('folder').notNull(),
    /** 20 random characters, the second part of the keys (`<name>-800.webp`). */
    name: text('name').notNull().unique(),
    status: text('status', { enum: photoStatuses }).notNull().default('processando'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [check('photos_folder', sql`${t.folder} in ('produtos', 'eventos', 'banners', 'resultados')`)],
);
