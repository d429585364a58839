import { dateInTimeZone, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { InvoicingProvider } from '../../providers/invoicing/index.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import type * as repo from './fiscal.repository.ts';

/**
 * What the fiscal steps (settings, building the notas, issuing, processing, cancelling, the views)
 * share: the service's dependencies, the documents' references and the months' arithmetic. Each step
 * lives in its own file and takes the context; fiscal.service.ts composes them.
 */

/** The legal window to cancel an authorised NF-e (Ajuste SINIEF 07/05; most states: 24 hours). */
export const NFE_CANCEL_WINDOW_MS = 24 * 3_600_000;

export const STALE_FISCAL_SETTINGS =
  'As configurações fiscais foram alteradas por outra pessoa depois que você abriu o formulário. Recarregue a página; suas alterações não foram salvas.';

/** The nota is still being processed (or the provider is down): the job is retried later. */
export class FiscalPending extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FiscalPending';
  }
}

export interface FiscalServiceDeps {
  db: Db;
  env: Pick<Env, 'FISCAL_REF_PREFIX' | 'publicUrl' | 'STORE_NAME' | 'NFSE_GROUPING'>;
  now: () => Date;
  log: FastifyBaseLogger;
  provider: InvoicingProvider;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
}

export type Kind = repo.DocumentRow['kind'];

/** A nota built from the sale and the settings, or what is missing (the `erro` reason). */
export type Built<T> = { ok: true; input: T } | { ok: false; reason: string };

/** A document to create: the rest (number, token, provider, status) is set when it is inserted. */
export type NewDocument = Pick<
  repo.DocumentRow,
  'kind' | 'ref' | 'orderId' | 'registrationId' | 'returnId' | 'amountCents'
> &
  Partial<Pick<repo.DocumentRow, 'teamBatchId'>>;

/** "aaaa-mm" of a month. */
export const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month after `period` (aaaa-mm). */
export function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The month before `period` (aaaa-mm). */
export function previousPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The month (aaaa-mm) `now` falls in, on the store's calendar. */
export const periodOf = (now: Date) => dateInTimeZone(now, STORE_TIME_ZONE).slice(0, 7);

/** Where a document's PDF or XML is read (public, the token is the key). */
export const fileUrl = (d: Pick<repo.DocumentRow, 'id' | 'accessToken' | 'kind'>, ext: 'pdf' | 'xml') =>
  `/api/notas/${d.id}/${d.accessToken}/${d.kind === 'nfse' ? 'nfse' : d.kind === 'nfe_evento' ? 'evento' : 'danfe'}.${ext}`;

/** Each document's reference, derived from our ids (`<FISCAL_REF_PREFIX>-…`): the nota is made once. */
export function fiscalRefs(prefix: string) {
  return {
    orderNfe: (orderId: number) => `${prefix}-pedido-${orderId}-nfe`,
    /** The NF-e that replaces the order's cancelled one after a swap before shipping (`n` ≥ 2). */
    orderNfeAgain: (orderId: number, n: number) => `${prefix}-pedido-${orderId}-nfe-${n}`,
    orderReturnNfe: (orderId: number) => `${prefix}-pedido-${orderId}-devolucao`,
    returnNfe: (returnId: number) => `${prefix}-devolucao-${returnId}-nfe`,
    /** The NF-e of an exchange's replacement units (docs/decisions/0043, later). */
    exchangeNfe: (returnId: number) => `${prefix}-troca-${returnId}-nfe`,
    /** The nota de crédito of a price reduced after the sale, one per refund (docs/decisions/0059, later). */
    orderCredit: (orderId: number, refundId: string) => `${prefix}-pedido-${orderId}-credito-${refundId}`,
    /**
     * The nota de crédito of a parcel the carrier brought back, one per refund: `-recusa-total-` (tpNFCredito
     * 03) or `-recusa-parcial-` (06); the type is read back from the reference (`creditTypeOfRef`).
     */
    carrierReturnCredit: (orderId: number, refundId: string, whole: boolean) =>
      `${prefix}-pedido-${orderId}-recusa-${whole ? 'total' : 'parcial'}-${refundId}`,
    /** The event 112130 on the order's NF-e: its goods lost in the shop's transport (one per order). */
    lossEvent: (orderId: number) => `${prefix}-pedido-${orderId}-extravio`,
    registrationNfse: (registrationId: number) => `${prefix}-inscricao-${registrationId}-nfse`,
    /** One NFS-e of an event's month (NFSE_GROUPING=event_month, docs/decisions/0049). */
    eventMonthNfse: (eventId: number, period: string) => `${prefix}-evento-${eventId}-${period}-nfse`,
    /** A team's places bought in one payment (docs/decisions/0077). */
    teamPlacesNfse: (batchId: number) => `${prefix}-equipe-vagas-${batchId}-nfse`,
  };
}

/**
 * `tpNFCredito` of a nota de crédito, from its reference (NT 2025.002-RTC, B25.2): 03 "retorno por recusa
 * total na entrega", 06 "retorno por recusa parcial na entrega", otherwise 04 "redução de valores".
 */
export function creditTypeOfRef(ref: string): '03' | '04' | '06' {
  if (/-recusa-total-[^-]+$/.test(ref)) return '03';
  if (/-recusa-parcial-[^-]+$/.test(ref)) return '06';
  return '04';
}

export interface FiscalContext extends FiscalServiceDeps {
  refs: ReturnType<typeof fiscalRefs>;
  /** One NFS-e per event per month (NFSE_GROUPING=event_month, docs/decisions/0049). */
  grouped: boolean;
}

export function createFiscalContext(deps: FiscalServiceDeps): FiscalContext {
  return {
    ...deps,
    refs: fiscalRefs(deps.env.FISCAL_REF_PREFIX),
    grouped: deps.env.NFSE_GROUPING === 'event_month',
  };
}
