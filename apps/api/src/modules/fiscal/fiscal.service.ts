import type { FiscalSettingsSave, ProductFiscal } from '@passada/core/contracts/fiscal';
import type { CarrierReturn } from '@passada/core/contracts/returns';
import type { Db, Tx } from '../../db/client.ts';
import * as repo from './fiscal.repository.ts';
import {
  cancelOrder,
  cancelRegistration,
  exchangeShipped,
  orderReduced,
  returnRefunded,
} from './fiscal-cancel.ts';
import { createFiscalContext, type FiscalServiceDeps } from './fiscal-context.ts';
import { issueOrder } from './fiscal-order.ts';
import { process } from './fiscal-process.ts';
import {
  issueEventMonth,
  issueLastMonth,
  issueRegistration,
  issueWaiting,
  monthNotas,
} from './fiscal-registration.ts';
import { retry, retryPending } from './fiscal-retry.ts';
import { productFiscal, readSettings, reformRules, saveSettings } from './fiscal-settings.ts';
import { orderNfeReplaceable, orderSwapped } from './fiscal-swap.ts';
import { invoiceTeamPlaces } from './fiscal-team-places.ts';
import {
  authorisedNfeKey,
  file,
  notaOfRegistration,
  notasOfOrder,
  notasOfUser,
  painelNotasOfOrder,
  painelNotasOfRegistration,
  sendMail,
} from './fiscal-views.ts';

export {
  FiscalPending,
  type FiscalServiceDeps,
  NFE_CANCEL_WINDOW_MS,
  STALE_FISCAL_SETTINGS,
} from './fiscal-context.ts';

/**
 * Notas fiscais of every sale (docs/decisions/0043). The work is done by named steps, each in its own
 * file: the settings and the reform's rules (fiscal-settings), building an order's NF-e (fiscal-nfe) and
 * a registration's or a month's NFS-e (fiscal-nfse), the document made once (fiscal-documents), sent and
 * answered (fiscal-process), issuing an order's (fiscal-order) and the registrations' (fiscal-registration),
 * cancellation and devolução (fiscal-cancel), retries (fiscal-retry) and the views (fiscal-views); this
 * wires the context into them.
 */
export function createFiscalService(deps: FiscalServiceDeps) {
  const ctx = createFiscalContext(deps);
  return {
    refs: ctx.refs,
    readSettings: (conn?: Db | Tx) => readSettings(ctx, conn),
    saveSettings: (tx: Tx, body: FiscalSettingsSave) => saveSettings(ctx, tx, body),
    reformRules: () => reformRules(ctx),
    productFiscal: (productId: number) => productFiscal(ctx, productId),
    saveProductFiscal: (tx: Tx, productId: number, body: ProductFiscal) =>
      repo.saveProductFiscal(tx, productId, body.ncm, body.origem),
    process: (documentId: number) => process(ctx, documentId),
    issueOrder: (orderId: number) => issueOrder(ctx, orderId),
    issueRegistration: (registrationId: number) => issueRegistration(ctx, registrationId),
    /** A team purchase's NFS-e, issued or replaced by what was kept (both jobs, decision 0077). */
    invoiceTeamPlaces: (batchId: number) => invoiceTeamPlaces(ctx, batchId),
    issueEventMonth: (period: string, tx?: Tx) => issueEventMonth(ctx, period, tx),
    issueLastMonth: () => issueLastMonth(ctx),
    issueWaiting: () => issueWaiting(ctx),
    monthNotas: (period: string) => monthNotas(ctx, period),
    cancelOrder: (orderId: number) => cancelOrder(ctx, orderId),
    orderSwapped: (orderId: number, swappedAt: Date) => orderSwapped(ctx, orderId, swappedAt),
    orderNfeReplaceable: (conn: Db | Tx, orderId: number) => orderNfeReplaceable(ctx, conn, orderId),
    cancelRegistration: (registrationId: number) => cancelRegistration(ctx, registrationId),
    returnRefunded: (returnId: number) => returnRefunded(ctx, returnId),
    exchangeShipped: (returnId: number) => exchangeShipped(ctx, returnId),
    orderReduced: (orderId: number, refundId: string, amountCents: number, carrierReturn?: CarrierReturn) =>
      orderReduced(ctx, orderId, refundId, amountCents, carrierReturn),
    retry: (tx: Tx, documentId: number) => retry(ctx, tx, documentId),
    retryPending: () => retryPending(ctx),
    sendMail: (documentId: number) => sendMail(ctx, documentId),
    file: (documentId: number, token: string, ext: 'pdf' | 'xml') => file(ctx, documentId, token, ext),
    notasOfOrder: (orderId: number) => notasOfOrder(ctx, orderId),
    notasOfUser: (userId: number) => notasOfUser(ctx, userId),
    notaOfRegistration: (registrationId: number) => notaOfRegistration(ctx, registrationId),
    painelNotasOfOrder: (orderId: number) => painelNotasOfOrder(ctx, orderId),
    painelNotasOfRegistration: (registrationId: number) => painelNotasOfRegistration(ctx, registrationId),
    authorisedNfeKey: (orderId: number) => authorisedNfeKey(ctx, orderId),
  };
}

export type FiscalService = ReturnType<typeof createFiscalService>;
