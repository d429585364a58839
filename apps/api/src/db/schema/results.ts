// Owner: results. The tables of race results: timers and their columns, imported files and the published results; only this module writes them (docs/architecture.md §9).
import type { TimerColumns } from '@passada/core/contracts/results';
import type { ResultStatus } from '@passada/core/results';
import { sql } from 'drizzle-orm';
import {
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
import { products } from './catalog.ts';
import { eventCategories, events } from './events.ts';
import { registrationCategories } from './registrations.ts';

/** A timing company and which of its file's columns hold what, set once and reused (decision 0064). */
export const resultTimers = pgTable(
  'result_timers',
  {
    id: serial('id').primaryKey(),
    name: text('nome').notNull(),
    columns: jsonb('colunas').$type<TimerColumns>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('result_timers_name_unique').on(sql`lower(${t.name})`)],
);

/** One line of a timer's file as read: the bib and times as written, the status and the other columns. */
export interface ImportedLine {
  /** The line number in the file (1 is the title line). */
  line: number;
  bib: string;
  gun: string;
  net: string;
  status: string;
  other: Record<string, string>;
}

/**
 * A timer's file for an event (or one of its days), kept as read so the preview staff saw is what
 * publishing uses; `previa` until published, then `publicada`, and `substituida` when a later file
 * replaces it.
 */
export const resultImports = pgTable(
  'result_imports',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    timerId: integer('timer_id')
      .notNull()
      .references(() => resultTimers.id),
    /** The race day the file is for; null is every day of the event. */
    day: date('dia'),
    fileName: text('nome_arquivo').notNull().default(''),
    lines: jsonb('linhas').$type<ImportedLine[]>().notNull(),
    status: text('situacao').notNull().default('previa'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    index('result_imports_event_idx').on(t.eventId),
    check('result_imports_status', sql`${t.status} in ('previa', 'publicada', 'substituida')`),
  ],
);

/**
 * A published result: one race (a registration's category) of one runner, with the places the shop
 * computed. Who ran (name, team, gender) is read from the registration, never copied here.
 */
export const eventResults = pgTable(
  'event_results',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    importId: integer('import_id')
      .notNull()
      .references(() => resultImports.id, { onDelete: 'cascade' }),
    entryId: integer('registration_category_id')
      .notNull()
      .references(() => registrationCategories.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => eventCategories.id, { onDelete: 'cascade' }),
    day: date('dia').notNull(),
    bib: integer('numero_peito').notNull(),
    status: text('situacao').$type<ResultStatus>().notNull(),
    gunMs: integer('tempo_bruto_ms'),
    netMs: integer('tempo_liquido_ms'),
    /** The timing company's age group on the race day (`M35-39`), the one the timing CSV gives. */
    ageGroup: text('faixa_etaria').notNull(),
    placeOverall: integer('colocacao_geral'),
    placeGender: integer('colocacao_genero'),
    placeAgeGroup: integer('colocacao_faixa'),
  },
  (t) => [
    uniqueIndex('event_results_entry_unique').on(t.entryId),
    index('event_results_event_idx').on(t.eventId, t.categoryId),
    index('event_results_bib_idx').on(t.eventId, t.bib),
    check('event_results_status', sql`${t.status} in ('OK', 'DNF', 'DSQ', 'DNS')`),
    check('event_results_finisher_time', sql`${t.status} <> 'OK' or ${t.gunMs} is not null`),
  ],
);

/**
 * After the finish line, back to the shop (docs/decisions/0064, later): the event's finisher shirt (a product
 * of the catalogue) and its next edition (another event), shown on each finisher's page and in the results
 * e-mail. One row per event, set by staff on the results screen.
 */
export const eventResultLinks = pgTable('event_result_links', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  finisherProductId: integer('camisa_finisher_id').references(() => products.id, { onDelete: 'set null' }),
  nextEditionEventId: integer('proxima_edicao_id').references(() => events.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The event's certificate design, chosen by staff (docs/decisions/0064, later): the layout, the accent
 * colour (#RRGGBB), who signs and a line of the organiser's. No row: the classic layout in the brand's
 * orange, unsigned. `version` is the back-office form's edit version (decision 0025): 1 before any save.
 */
export const eventCertificateDesigns = pgTable(
  'event_certificate_designs',
  {
    eventId: integer('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    layout: text('layout').notNull(),
    color: text('color').notNull(),
    signatureName: text('signature_name'),
    signatureRole: text('signature_role'),
    message: text('message'),
    version: integer('version').notNull().default(2),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('event_certificate_designs_layout', sql`${t.layout} in ('classico', 'faixa', 'minimalista')`),
    check('event_certificate_designs_color', sql`${t.color} ~ '^#[0-9A-F]{6}$'`),
  ],
);

/**
 * Photos of a race by bib (docs/decisions/0064, later): staff upload an album through the photo pipeline
 * (folder `resultados`, the brand's mark on every resized copy) and tag each photo with the bibs in it, by
 * hand or from the timer's file of bibs per photo (matched by the file's name); a runner's page shows the
 * ready photos with their bib. No face recognition: a bib is all that ties a photo to a runner.
 */
export const resultPhotos = pgTable(
  'result_photos',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The photo pipeline's address of its 800 px copy (the pipeline's own record follows it). */
    url: text('url').notNull(),
    /** The file's name as uploaded: the timer's file of bibs per photo names photos by it. */
    fileName: text('nome_arquivo').notNull(),
    bibs: integer('numeros').array().notNull().default(sql`'{}'::integer[]`),
    status: text('status').notNull().default('processando'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('result_photos_url_unique').on(t.url),
    index('result_photos_event_idx').on(t.eventId, t.fileName),
    index('result_photos_bibs_idx').using('gin', t.bibs),
    check('result_photos_status', sql`${t.status} in ('processando', 'pronta', 'falhou')`),
  ],
);
