import { formatStoreDateTime } from '@passada/core/calendar';
import type { CardBrand } from '@passada/core/card';
import type { PaymentListItem } from '@passada/core/contracts/payments';
import type { InstallmentOption } from '@passada/core/installments';
import { formatBRL } from '@passada/core/money';
import { normalizePhone } from '@passada/core/phone';
import type { Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import { CARD_STATUSES, type SimulatedMemory } from '../../providers/payments/index.ts';
import { templateParameter } from '../../providers/whatsapp/index.ts';
import { createChargeCreation } from './charge-create.ts';
import type { ChargeRow, RefundRow } from './payments.repository.ts';
import * as repo from './payments.repository.ts';
import {
  type ChargePurpose,
  createPaymentsContext,
  errorText,
  HELD_RELEASED,
  OPEN,
  type PaymentsServiceDeps,
} from './payments-context.ts';
import { createReconciliation } from './reconcile.ts';
import { createRefunds } from './refunds.ts';

export type { CardOutcome, CardPayInput, PixCreated } from './charge-create.ts';
export {
  CannotFulfil,
  type ChargePurpose,
  type ChargePurposeHandler,
  isUniqueViolation,
  type PaymentsServiceDeps,
} from './payments-context.ts';
export type { ChargeRow, RefundRow };

export interface ChargeStatus {
  /** Ours, for the module that owns what it pays for; never shown to the buyer. */
  chargeId: number;
  status: ChargeRow['status'];
  fulfilledId?: number;
  purpose: ChargePurpose;
  reason?: string;
  expiresAt?: Date;
}

const NOTEWORTHY_DAYS = 30;

/** What a charge pays for, as the browser names it. */
const FINALIDADE = {
  order: 'pedido',
  registration: 'inscricao',
  exchange: 'troca',
  team_places: 'vagas_equipe',
} as const satisfies Record<ChargePurpose, string>;

/**
 * Charges (docs/architecture.md §5): created bound to a purpose and a server-computed amount, with no
 * provider call inside a transaction; settled by one path (webhook, polling, reconciliation, card
 * notifications) that always asks the provider; a payment that can no longer be honoured is returned.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const ctx = createPaymentsContext(deps);
  const refunds = createRefunds(ctx);
  const reconciliation = createReconciliation(ctx, refunds);
  const creation = createChargeCreation(ctx, reconciliation);
  const { handlerFor, providerFailure } = ctx;
  const { reconcile, reconcileCharge, receivePixNotifications } = reconciliation;
  let webhookState: 'ok' | 'erro' | 'pendente' | 'desativado' = 'desativado';

  /** A charge by its txid, for the module that owns what it pays for. */
  function findByTxid(txid: string): Promise<ChargeRow | null> {
    return repo.findChargeByTxid(deps.db, txid);
  }

  /**
   * What the purpose's open charges carry, matched on one draft field when given (optionally one
   * account's only).
   */
  function openDrafts(
    tx: Tx,
    purpose: ChargePurpose,
    match: { field: string; value: string } | undefined,
    onlyUserId?: number,
  ): Promise<unknown[]> {
    return repo.findOpenDrafts(tx, purpose, match, onlyUserId);
  }

  /**
   * Status of a charge for its owner (another user's charge does not exist for them). `withFulfilled:
   * false` leaves out what a paid charge created, for a caller that reads it itself.
   */
  async function status(
    user: AuthUser,
    txid: string,
    { withFulfilled = true }: { withFulfilled?: boolean } = {},
  ): Promise<ChargeStatus> {
    let charge = await repo.findChargeByTxid(deps.db, txid);
    if (!charge || charge.userId !== user.id) throw notFound('Cobrança não encontrada.');
    if (OPEN.has(charge.status)) {
      // Polling covers a webhook that never arrived; a provider hiccup only leaves the state as it was.
      const settled = await reconcileCharge(charge, 'poll').catch((err: unknown) => {
        deps.log.warn({ txid, err: errorText(err) }, 'charge status poll failed');
        return undefined;
      });
      if (settled)
        return describe(settled.row, withFulfilled ? settled.fulfilledId : undefined, withFulfilled);
      charge = (await repo.findChargeByTxid(deps.db, txid))!;
    }
    return describe(charge, undefined, withFulfilled);
  }

  /**
   * A charge as the status answers show it, with what it paid for once paid (`fulfilledId` when the
   * caller knows it; otherwise looked up unless `lookUp` is false).
   */
  async function describe(charge: ChargeRow, fulfilledId?: number, lookUp = true): Promise<ChargeStatus> {
    const fulfilled =
      fulfilledId !== undefined
        ? { id: fulfilledId }
        : charge.status === 'CONCLUIDA' && lookUp
          ? await handlerFor(charge.purpose).fulfilledBy(deps.db, charge.id)
          : null;
    return {
      chargeId: charge.id,
      status: charge.status,
      purpose: charge.purpose,
      ...(fulfilled ? { fulfilledId: fulfilled.id } : {}),
      ...(charge.reason ? { reason: charge.reason } : {}),
      ...(charge.method === 'pix' && charge.pixCopiaECola ? { expiresAt: charge.expiresAt } : {}),
    };
  }

  /**
   * In the caller's transaction, the purpose's open charges (Pix and card) whose draft holds `value` at
   * `path` end (what they held given back) because what they pay for no longer stands, e.g. a change of
   * distance of a registration just cancelled: each keeps `reason`; a Pix is removed at the provider
   * after commit (`charges.remove`); a card (its call under way or pending at the provider) is still
   * asked for its outcome by reconciliation for a day; a payment that still arrives is refunded whole
   * with that reason.
   */
  async function endOpenFor(
    tx: Tx,
    purpose: ChargePurpose,
    match: { path: readonly string[]; value: string },
    reason: string,
  ): Promise<number[]> {
    const open = await repo.findOpenByDraft(tx, purpose, match.path, match.value);
    const ended = await creation.endWithdrawn(
      tx,
      open.map((c) => c.id),
      reason,
    );
    for (const c of open)
      if (c.method === 'pix' && ended.includes(c.id))
        await deps.jobs.send('charges.remove', { chargeId: c.id }, { tx });
    return ended;
  }

  /**
   * The `charges.remove` job: a Pix ended by `endOpenFor`, or one whose creation went unanswered (`FALHOU`,
   * its removal at once failed), is removed at the provider; a failure throws, so the job tries again.
   */
  async function removeEnded(chargeId: number): Promise<void> {
    const row = await repo.findChargeById(deps.db, chargeId);
    if (row?.method !== 'pix') return;
    const unanswered = row.status === 'FALHOU';
    if (!unanswered && (!row.pixCopiaECola || !HELD_RELEASED.has(row.status))) return;
    await creation.removeAtProvider(row.id, row.txid, 'reconcile');
  }

  /** Simulated mode only: the payer pays at the bank, then the same path as a webhook runs. */
  async function simulatePixPayment(txid: string): Promise<ChargeStatus & { txid: string }> {
    const { db, provider, now } = deps;
    if (!provider.simulator) throw notFound();
    const charge = await repo.findChargeByTxid(db, txid);
    if (charge?.method !== 'pix') throw notFound('Cobrança não encontrada.');
    // A charge created before a restart: the simulated bank recalls it first (`simulatedMemory`).
    await provider.getPix(txid).catch(() => undefined);
    const paid = provider.simulator.payPix(txid, now());
    // The path of the bank's webhook, from the row just read.
    const settled = await reconcileCharge(charge, 'webhook');
    const current = settled?.row ?? (await repo.findChargeByTxid(db, txid))!;
    if (!paid && current.status !== 'CONCLUIDA')
      throw conflict('Esta cobrança expirou e não pode mais ser paga.', 'cobranca_expirada');
    return { txid, ...(await describe(current, settled?.fulfilledId)) };
  }

  async function installments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]> {
    return deps.provider.installments(brand, totalCents).catch((err: unknown) => {
      throw providerFailure(err, 'Não foi possível consultar as parcelas. Tente novamente em instantes.');
    });
  }

  /**
   * What the buyer chose to pay: a card's instalments carry interest the draft's amount does not have
   * until the charge is paid (then the amount is the total charged); a refused or pending card says
   * what the bank was asked for, as the buyer saw it.
   */
  function chosenCents(charge: {
    method: string;
    amountCents: number;
    installments: number;
    installmentValueCents: number | null;
    status: string;
  }): number {
    if (charge.method !== 'cartao' || !charge.installmentValueCents) return charge.amountCents;
    if (charge.status === 'CONCLUIDA' || charge.status === 'DEVOLVIDA') return charge.amountCents;
    return Math.max(charge.amountCents, charge.installmentValueCents * charge.installments);
  }

  /** GET /api/pagamentos/: what the account should know about (pending, refused, returned). */
  async function listNoteworthy(user: AuthUser): Promise<PaymentListItem[]> {
    const since = new Date(deps.now().getTime() - NOTEWORTHY_DAYS * 86_400_000);
    const rows = await repo.listNoteworthy(deps.db, user.id, since);
    return rows.map(({ charge, refund }) => ({
      txid: charge.txid,
      finalidade: FINALIDADE[charge.purpose],
      metodo: charge.method,
      status: charge.status,
      valor: chosenCents(charge) / 100,
      ...(charge.method === 'cartao' ? { parcelas: charge.installments } : {}),
      criado_em: charge.createdAt.toISOString(),
      ...(charge.reason ? { motivo: charge.reason } : {}),
      ...(refund
        ? {
            devolucao: {
              status: refund.status,
              valor: refund.amountCents / 100,
              em: (refund.updatedAt ?? refund.createdAt).toISOString(),
            },
          }
        : {}),
    }));
  }

  /**
   * LGPD: the account is being deleted (inside the caller's transaction). Every one of its charges
   * loses its draft's personal data; what was paid keeps its order or registration, and a payment that
   * still arrives for an open charge is refunded.
   */
  async function forgetAccount(tx: Tx, userId: number): Promise<void> {
    await forgetCharges(tx, await repo.findWithPersonalDataOf(tx, userId));
  }

  /**
   * LGPD: these charges' drafts lose their personal data (the sales retention, once the records'
   * period is over), inside the caller's transaction; already cleared ones are left alone.
   */
  async function forgetCharges(tx: Tx, chargeIds: number[]): Promise<void> {
    for (const id of chargeIds) {
      const row = await repo.lockCharge(tx, id);
      if (row) await ctx.clearPersonalData(tx, row);
    }
  }

  /** Registers the Pix webhook and reads it back; the outcome shows in the health check. */
  async function registerWebhook(url: string): Promise<void> {
    webhookState = 'pendente';
    try {
      await deps.provider.registerPixWebhook(url);
      const registered = await deps.provider.getPixWebhook();
      webhookState = registered?.url === url ? 'ok' : 'erro';
    } catch (err) {
      webhookState = 'erro';
      deps.log.error({ err: errorText(err) }, 'pix webhook registration failed');
    }
  }

  /**
   * The simulated bank's memory across restarts (docs/decisions/0028): what it had is what our charges
   * recorded it had. Only the simulated provider asks; Efí keeps its own charges, and one it does not
   * know stays a 404 the reconciliation reports.
   */
  const simulatedMemory: SimulatedMemory = {
    async pix(key) {
      const row =
        'txid' in key
          ? await repo.findChargeByTxid(deps.db, key.txid)
          : await repo.findPixByEndToEndId(deps.db, key.endToEndId);
      // Never recorded as created at the bank (FALHOU, or a crash before its answer): it is not there.
      if (row?.method !== 'pix' || row.provider !== 'simulado' || !row.pixCopiaECola) return null;
      const paid = row.endToEndId !== null && (row.status === 'CONCLUIDA' || row.status === 'DEVOLVIDA');
      return {
        txid: row.txid,
        amountCents: row.amountCents,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
        // Ours ended it (expired, replaced) only after removing it at the bank.
        status: paid ? 'CONCLUIDA' : row.status === 'ATIVA' ? 'ATIVA' : 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
        ...(paid && row.endToEndId ? { endToEndId: row.endToEndId } : {}),
        ...(paid && row.paidAt ? { paidAt: row.paidAt } : {}),
      };
    },
    async card(providerChargeId) {
      const row = await repo.findCardCharge(deps.db, { providerChargeId });
      if (row?.provider !== 'simulado' || !row.providerChargeId) return null;
      const status = CARD_STATUSES.find((s) => s === row.providerStatus) ?? 'waiting';
      return {
        chargeId: row.providerChargeId,
        customId: String(row.id),
        status,
        installments: row.installments,
        installmentValueCents: row.installmentValueCents ?? Math.round(row.amountCents / row.installments),
        totalCents: row.amountCents,
      };
    },
  };
  deps.provider.simulator?.rememberFrom(simulatedMemory);

  /**
   * The job that sends a Pix charge's copia e cola on WhatsApp to a payer who opted in (template
   * `pix_codigo`); nothing once the charge is no longer open or its data was cleared.
   */
  async function sendPixOnWhatsApp(chargeId: number): Promise<void> {
    const charge = await repo.findChargeById(deps.db, chargeId);
    if (!deps.whatsapp || !charge || charge.status !== 'ATIVA' || !charge.pixCopiaECola) return;
    if (charge.personalDataClearedAt || charge.expiresAt <= deps.now()) return;
    const contact = handlerFor(charge.purpose).whatsappContact?.(charge.draft);
    if (!contact) return;
    await deps.whatsapp.send({
      to: `55${normalizePhone(contact.phone)}`,
      template: 'pix_codigo',
      consentAt: contact.consentAt ?? null,
      parameters: [
        contact.name,
        formatBRL(charge.amountCents),
        contact.what,
        formatStoreDateTime(charge.expiresAt),
        charge.pixCopiaECola,
      ].map(templateParameter),
    });
  }

  return {
    registerPurpose: ctx.registerPurpose,
    createPix: creation.createPix,
    receivePixNotifications,
    receiveCardNotification: reconciliation.receiveCardNotification,
    reconcile,
    reconcileAll: reconciliation.reconcileAll,
    /** Kept for callers that only mean "settle what is due". */
    expireDue: reconciliation.reconcileAll,
    findByTxid,
    openDrafts,
    endOpenFor,
    removeEnded,
    status,
    simulatePixPayment,
    installments,
    chargeCard: creation.chargeCard,
    confirmFree: creation.confirmFree,
    recordFree: creation.recordFree,
    listNoteworthy,
    returnPaid: refunds.returnPaid,
    refundPart: refunds.refundPart,
    refundable: refunds.refundable,
    paidAndRefunded: refunds.paidAndRefunded,
    sendRefund: refunds.sendRefund,
    refundOf: (chargeId: number) => repo.findRefund(deps.db, chargeId),
    refundsOf: (chargeId: number) => repo.listRefunds(deps.db, chargeId),
    chargeById: (chargeId: number) => repo.findChargeById(deps.db, chargeId),
    sendPixOnWhatsApp,
    sendRefundNotice: refunds.sendRefundNotice,
    registerWebhook,
    forgetAccount,
    forgetCharges,
    webhookState: () => webhookState,
    events: (chargeId: number) => repo.listEvents(deps.db, chargeId),
    needingAttention: () => repo.listNeedingAttention(deps.db),
    /**
     * Unpaid charges of a purpose for the back office, one page: `open` ones may still be paid (and hold
     * what they pay for), `expired` ones ended by their deadline (`EXPIRED_STATUSES`).
     */
    unpaidCharges: (
      state: 'open' | 'expired',
      filter: Omit<repo.StaffChargeFilter, 'statuses'>,
      limit: number,
      offset: number,
    ) =>
      repo.listChargesForStaff(
        deps.db,
        { ...filter, statuses: state === 'open' ? repo.OPEN_STATUSES : repo.EXPIRED_STATUSES },
        limit,
        offset,
      ),
  };
}

/** Charges and their confirmation; other modules register what a charge can pay for. */
export type PaymentsService = ReturnType<typeof createPaymentsService>;
