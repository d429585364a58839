// Owner: fiscal. The tables of notas fiscais, fiscal settings and tax rules; only this module writes them (docs/architecture.md §9).
import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { products } from './catalog.ts';
import { events } from './events.ts';
import { orders } from './orders.ts';
import { registrations, teamPlaceBatches } from './registrations.ts';

/** Raw bytes (the DANFE PDF, the XML); PGlite hands back a Uint8Array, `pg` a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

/** `mei`: CRT 4 on the NF-e (NT 2024.001), option 2 on the NFS-e's Simples field (docs/decisions/0059, later). */
export const TAX_REGIMES = ['simples_nacional', 'simples_excesso', 'regime_normal', 'mei'] as const;

export const TAX_DESTINATIONS = ['interna', 'interestadual'] as const;

/**
 * `nfe_credito`: a nota de crédito (finNFe 5, tpNFCredito 04 "redução de valores", NT 2025.002-RTC) of an
 * order's price reduced after the sale (docs/decisions/0059, later). `nfe_evento`: an event on the order's
 * NF-e (112130, goods lost in the shop's transport): no number of its own (`number` is its nSeqEvento), no
 * PDF, the buyer does not see it. Text column: no migration.
 */
export const FISCAL_KINDS = ['nfe', 'nfe_devolucao', 'nfe_credito', 'nfe_evento', 'nfse'] as const;

/** `pendente`: waiting for the provider (or retrying); `erro`: stopped, staff must act; the others final. */
export const FISCAL_STATUSES = ['pendente', 'autorizada', 'erro', 'cancelada'] as const;

/**
 * The shop's fiscal identity (one row, id 1): what every nota names as its emitter. Written by the
 * fiscal module only; saved whole with a version check like the other back-office forms.
 */
export const fiscalSettings = pgTable(
  'fiscal_settings',
  {
    id: integer('id').primaryKey().default(1),
    cnpj: text('cnpj').notNull().default(''),
    ie: text('ie').notNull().default(''),
    im: text('im').notNull().default(''),
    legalName: text('legal_name').notNull().default(''),
    regime: text('regime', { enum: TAX_REGIMES }).notNull().default('simples_nacional'),
    street: text('street').notNull().default(''),
    number: text('number').notNull().default(''),
    district: text('district').notNull().default(''),
    city: text('city').notNull().default(''),
    cityCode: text('city_code').notNull().default(''),
    uf: text('uf').notNull().default(''),
    cep: text('cep').notNull().default(''),
    /** The city's service code for registrations (item da lista de serviços, LC 116). */
    nfseServiceCode: text('nfse_service_code').notNull().default(''),
    /**
     * The registrations' service in the NFS-e Padrão Nacional (docs/decisions/0059): `cTribNac` (6 digits),
     * the NBS code (9 digits, where the city requires it), the shop's CNAE and the city's own tax code of
     * the service (where its rule asks for them).
     */
    nfseNationalCode: text('nfse_national_code').notNull().default(''),
    nfseNbs: text('nfse_nbs').notNull().default(''),
    cnae: text('cnae').notNull().default(''),
    nfseMunicipalCode: text('nfse_municipal_code').notNull().default(''),
    /**
     * The CBS rate of 2027 in ten-thousandths of a percent (8,8 % is 88000) and its source: the law leaves
     * it to a resolution of the Senado Federal (LC 214/2025, art. 349), so staff enter it; null until then,
     * and a nota of 2027 stops (docs/decisions/0059, later).
     */
    cbs2027Rate: integer('cbs_2027_rate'),
    cbs2027Source: text('cbs_2027_source').notNull().default(''),
    nfeSeries: integer('nfe_series').notNull().default(1),
    /** The next numbers the shop gives (taken under this row's lock). */
    nextNfeNumber: integer('next_nfe_number').notNull().default(1),
    nextNfseNumber: integer('next_nfse_number').notNull().default(1),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('fiscal_settings_one_row', sql`${t.id} = 1`)],
);

/** CFOP and tax situations by destination (inside the state / to another state): data, not code. */
export const fiscalTaxRules = pgTable(
  'fiscal_tax_rules',
  {
    id: serial('id').primaryKey(),
    destination: text('destination', { enum: TAX_DESTINATIONS }).notNull(),
    cfop: text('cfop').notNull(),
    /** CST (regime normal) or CSOSN (Simples Nacional) of the ICMS. */
    icmsSituation: text('icms_situation').notNull(),
    pisSituation: text('pis_situation').notNull(),
    cofinsSituation: text('cofins_situation').notNull(),
    /** IBS/CBS (docs/decisions/0059): CST (3 digits) and cClassTrib (6 digits) of the items. */
    ibsCbsSituation: text('ibs_cbs_situation').notNull().default('000'),
    ibsCbsClass: text('ibs_cbs_class').notNull().default('000001'),
  },
  (t) => [uniqueIndex('fiscal_tax_rules_destination_idx').on(t.destination)],
);

/** A product's NCM and origin (the catalogue's product form edits them through the fiscal module). */
export const productFiscal = pgTable('product_fiscal', {
  productId: integer('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  ncm: text('ncm').notNull(),
  origin: integer('origin').notNull(),
});

/**
 * Every nota the shop asked for: `ref` is the provider's reference, derived from our ids, so a retry
 * finds the same document. The files are kept here (the provider keeps them too).
 */
export const fiscalDocuments = pgTable(
  'fiscal_documents',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: FISCAL_KINDS }).notNull(),
    ref: text('ref').notNull().unique(),
    /** Random, unguessable: the links to the PDF and XML carry it (e-mails open them without a login). */
    accessToken: text('access_token').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    registrationId: integer('registration_id').references(() => registrations.id),
    /** The return (order_returns.id) a devolução answers. */
    returnId: integer('return_id'),
    /**
     * One NFS-e for an event's month (NFSE_GROUPING=event_month, docs/decisions/0049): the event and the
     * month (aaaa-mm, store calendar); its registrations are in `fiscal_document_registrations`.
     */
    eventId: integer('event_id').references(() => events.id),
    period: text('period'),
    /** A team's places bought in one payment (docs/decisions/0077): the purchase its NFS-e invoices. */
    teamBatchId: integer('team_batch_id').references(() => teamPlaceBatches.id),
    status: text('status', { enum: FISCAL_STATUSES }).notNull().default('pendente'),
    /** Why it is pending or stopped, in Portuguese, for staff. */
    reason: text('reason'),
    provider: text('provider').notNull(),
    /** Our number and the moment fixed before the first call (the offline issuer derives the key from them). */
    number: integer('number').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    accessKey: text('access_key'),
    providerNumber: text('provider_number'),
    series: text('series'),
    protocol: text('protocol'),
    verificationCode: text('verification_code'),
    rejectionCode: text('rejection_code'),
    pdf: bytes('pdf'),
    xml: bytes('xml'),
    attempts: integer('attempts').notNull().default(0),
    authorisedAt: timestamp('authorised_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('fiscal_documents_order_idx').on(t.orderId),
    index('fiscal_documents_registration_idx').on(t.registrationId),
    index('fiscal_documents_status_idx').on(t.status),
  ],
);

/**
 * The registrations a month's NFS-e of an event covers (docs/decisions/0049): a registration is in one
 * such nota at most (its primary key), with the amount it added.
 */
export const fiscalDocumentRegistrations = pgTable(
  'fiscal_document_registrations',
  {
    registrationId: integer('registration_id')
      .primaryKey()
      .references(() => registrations.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => fiscalDocuments.id),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [index('fiscal_document_registrations_document_idx').on(t.documentId)],
);

/**
 * The registrations that waited for a month's NFS-e (NFSE_GROUPING=event_month, docs/decisions/0049):
 * written when `fiscal.issue-registration` runs under event_month and the month's nota does not exist
 * yet, with the event and the month (aaaa-mm, store calendar) the payment is dated in. A registration
 * still waiting is one recorded here in no nota yet; only those get a nota of their own when the month's
 * nota was made without them or the setting goes back to `registration`, so history from before the
 * fiscal setup is never invoiced by a switch.
 */
export const fiscalRegistrationWaits = pgTable(
  'fiscal_registration_waits',
  {
    registrationId: integer('registration_id')
      .primaryKey()
      .references(() => registrations.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    period: text('period').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fiscal_registration_waits_event_period_idx').on(t.eventId, t.period)],
);
