import type { Tx } from '../../db/client.ts';
import type { CardChargeResult, CardStatus, PixState } from '../../providers/payments/index.ts';
import type { ChargeRow, PaymentEventSource } from './payments.repository.ts';
import * as repo from './payments.repository.ts';
import {
  CARD_REVIEW_SECONDS,
  errorInfo,
  errorText,
  HELD_RELEASED,
  isNotFound,
  OPEN,
  type PaymentsContext,
  PERSONAL_DATA_GRACE_MS,
} from './payments-context.ts';
import type { Refunds } from './refunds.ts';

/** A card answer, from the charge call, a read or a notification. */
interface CardNews {
  status: CardStatus;
  providerChargeId?: string;
  reason?: string;
  installments?: number;
  installmentValueCents?: number;
  totalCents?: number;
  raw: unknown;
}

/** A charge just settled as paid: its row after settling, and what it paid for when fulfilled. */
export interface Settled {
  row: ChargeRow;
  fulfilledId?: number;
}

/** A card charge whose outcome stayed unknown this long (no provider id, no notification) is given up. */
const CARD_UNKNOWN_GIVE_UP_MS = 24 * 3600_000;
const RECONCILE_BATCH = 200;

const LATE_PIX_REASON =
  'O pagamento chegou depois do prazo e os itens ou vagas reservados não estavam mais disponíveis.';
const LATE_CARD_REASON =
  'O cartão foi aprovado depois do prazo e os itens ou vagas reservados não estavam mais disponíveis.';
const CLEARED_REASON =
  'Os dados do pedido ou da inscrição foram apagados a pedido do titular da conta antes da confirmação do pagamento.';
const TAKEN_PLACE_REASON = 'A vaga já estava ocupada por outra inscrição paga para este CPF.';

/**
 * Reconciliation (docs/architecture.md §5): the one path on which a charge moves on provider news
 * (webhook, status polling, the reconciliation job, card notifications). Pix and card; expiry asks the
 * provider first; a Pix paid late is fulfilled when its units are still there, otherwise returned.
 */
export function createReconciliation(ctx: PaymentsContext, refunds: Refunds) {
  const { deps, handlerFor, logEvent, endCharge, attempt, clearPersonalData } = ctx;
  const { refundInTx, sendRefund } = refunds;

  /**
   * A charge paid after its units went back, held again: the purpose's rules that others may have used
   * up meanwhile first (an opening's limits, `recheck`), then its units. Refuses (CannotFulfil, 409).
   */
  async function holdAgain(tx: Tx, row: ChargeRow) {
    const handler = handlerFor(row.purpose);
    if (handler.recheck) await handler.recheck(tx, row);
    await handler.reserve(tx, row.id, row.draft);
  }

  /**
   * A Pix the provider says is paid. Units still held → fulfil. Units gone back (expired, removed) →
   * hold them again and fulfil when they are there. Otherwise, or when the purpose cannot fulfil,
   * the money is returned (refund row + e-mail in the same transaction, the provider call after).
   */
  async function settlePaidPix(chargeId: number, state: PixState): Promise<Settled | undefined> {
    const { db, now, log } = deps;
    const outcome = await db.transaction(async (tx) => {
      const row = await repo.lockCharge(tx, chargeId);
      if (!row || row.status === 'CONCLUIDA' || row.status === 'DEVOLVIDA') return null;
      const paid = {
        paidAt: state.paidAt ?? now(),
        endToEndId: state.endToEndId ?? null,
        updatedAt: now(),
      };
      const paidCents = state.paidCents ?? state.amountCents;
      if (paidCents !== row.amountCents) {
        log.error(
          { txid: row.txid, expected: row.amountCents, paid: paidCents },
          'pix paid with a different amount',
        );
        return refundInTx(tx, row, paid, 'O valor pago não corresponde ao valor da cobrança.', paidCents);
      }
      const handler = handlerFor(row.purpose);
      if (row.personalDataClearedAt) {
        // Nothing left to make an order or registration from: the money goes back.
        if (OPEN.has(row.status)) await handler.release(tx, row.id, row.draft);
        return refundInTx(tx, row, paid, OPEN.has(row.status) ? CLEARED_REASON : LATE_PIX_REASON);
      }
      if (HELD_RELEASED.has(row.status)) {
        const refused: { reason?: string } = {};
        const held = await attempt(tx, (sp) => holdAgain(sp, row), true, refused);
        // Ended because what it paid for no longer stands (`endOpenFor`): that reason, the true one;
        // else a limit used up meanwhile names itself.
        if (!held) return refundInTx(tx, row, paid, row.reason ?? refused.reason ?? LATE_PIX_REASON);
      }
      const confirmed = await repo.updateCharge(tx, row.id, { status: 'CONCLUIDA', ...paid });
      const refusal: { reason?: string } = {};
      const fulfilled = await attempt(
        tx,
        (sp) => handler.fulfil(sp, confirmed),
        handler.refusesAfterWriting?.(row.draft) ?? true,
        refusal,
      );
      if (!fulfilled) {
        await handler.release(tx, row.id, row.draft);
        return refundInTx(tx, confirmed, paid, refusal.reason ?? TAKEN_PLACE_REASON);
      }
      return { kind: 'fulfilled' as const, row: confirmed, id: fulfilled.value.id };
    });
    if (!outcome) return;
    if (outcome.kind === 'fulfilled') {
      log.info({ txid: outcome.row.txid, chargeId, fulfilledId: outcome.id }, 'pix charge confirmed');
      return { row: outcome.row, fulfilledId: outcome.id };
    }
    log.warn({ txid: outcome.row.txid, chargeId }, 'pix payment returned');
    await sendRefund(outcome.refund);
    return { row: outcome.row };
  }

  /**
   * The one way a charge's state moves on provider news: webhook, status polling, reconciliation.
   * Always asks the provider; never trusts our clock alone or a notification body.
   */
  async function reconcile(chargeId: number, source: PaymentEventSource): Promise<void> {
    const charge = await repo.findChargeById(deps.db, chargeId);
    if (charge) await reconcileCharge(charge, source);
  }

  /**
   * `reconcile` for a charge row the caller has just read. Answers the charge as settled by this call
   * (and what it paid for) when a Pix payment was settled here, so the caller need not read it again.
   */
  async function reconcileCharge(
    charge: ChargeRow,
    source: PaymentEventSource,
  ): Promise<Settled | undefined> {
    // Nothing was paid and no provider knows it: there is nothing to ask anyone (docs/decisions/0028).
    if (charge.method === 'gratuito') return undefined;
    if (charge.method === 'pix') return reconcilePix(charge, source);
    await reconcileCard(charge, source);
    return undefined;
  }

  async function reconcilePix(charge: ChargeRow, source: PaymentEventSource): Promise<Settled | undefined> {
    const { provider, now, env } = deps;
    const creating = charge.status === 'ATIVA' && !charge.pixCopiaECola;
    // A creation still under way is left alone; one older than any provider call crashed mid-way.
    if (creating && now().getTime() - charge.createdAt.getTime() < 2 * env.EFI_TIMEOUT_MS + 30_000) return;
    let state: PixState;
    try {
      state = await provider.getPix(charge.txid);
    } catch (err) {
      if (creating && isNotFound(err)) {
        await endCharge(charge.id, { status: 'FALHOU' }, { source, kind: 'not_found', raw: errorInfo(err) });
        return;
      }
      throw err;
    }
    await logEvent(deps.db, charge.id, source, state.status, state.raw);
    if (creating) await repo.updateCharge(deps.db, charge.id, { expiresAt: state.expiresAt });
    if (state.status === 'CONCLUIDA' && state.endToEndId) return settlePaidPix(charge.id, state);
    if (charge.status !== 'ATIVA') return;
    if (state.status === 'ATIVA') {
      if (state.expiresAt.getTime() > now().getTime()) return;
      // Past the provider's deadline: remove it there first, so no payment can race our release.
      const removed = await provider.cancelPix(charge.txid);
      await logEvent(deps.db, charge.id, source, `cancel:${removed.status}`, removed.raw);
      if (removed.status === 'CONCLUIDA' && removed.endToEndId) return settlePaidPix(charge.id, removed);
    }
    const ended = await endCharge(charge.id, { status: 'EXPIRADA' });
    if (ended) deps.log.info({ txid: ended.txid, chargeId: ended.id }, 'charge expired');
  }

  async function reconcileCard(charge: ChargeRow, source: PaymentEventSource): Promise<void> {
    const { provider, now } = deps;
    // A card ended while open (`endOpenFor`) is still asked: a late approval is refunded.
    const endedOpen = charge.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' && charge.providerChargeId !== null;
    if (!OPEN.has(charge.status) && charge.status !== 'CONCLUIDA' && !endedOpen) return;
    if (!charge.providerChargeId) {
      const age = now().getTime() - charge.createdAt.getTime();
      if (charge.status === 'ATIVA' && age > CARD_REVIEW_SECONDS * 1000)
        // The process died during the card call: the outcome is unknown, not refused.
        await repo.updateCharge(deps.db, charge.id, { status: 'EM_ANALISE', updatedAt: now() });
      else if (charge.status === 'EM_ANALISE' && age > CARD_UNKNOWN_GIVE_UP_MS)
        // Money may still have been taken: staff see it, and a later `paid` is fulfilled or refunded.
        await endCharge(
          charge.id,
          {
            status: 'FALHOU',
            reason: 'A operadora não confirmou o pagamento.',
            attention: 'resultado_desconhecido',
          },
          { source, kind: 'gave_up', raw: null },
        );
      return;
    }
    if (charge.status === 'CONCLUIDA') return;
    const result = await provider.getCardCharge(charge.providerChargeId);
    await applyCard(charge.id, cardNews(result), source);
  }

  function cardNews(result: CardChargeResult): CardNews {
    return {
      status: result.status,
      providerChargeId: result.chargeId,
      ...(result.refusalReason ? { reason: result.refusalReason } : {}),
      installments: result.installments,
      installmentValueCents: result.installmentValueCents,
      totalCents: result.totalCents,
      raw: result.raw,
    };
  }

  /**
   * Moves a card charge on what the provider said. Only `paid`/`settled` fulfil; `waiting` and
   * `approved` keep the units held; `unpaid`/`canceled` give them back; a later `refunded` or
   * `contested` on a fulfilled charge is flagged for staff. A card paid after its units went back is
   * fulfilled when they can be held again, otherwise refunded in full (as a late Pix is).
   */
  async function applyCard(chargeId: number, news: CardNews, source: PaymentEventSource) {
    const { db, now, log } = deps;
    const result = await db.transaction(async (tx) => {
      const row = await repo.lockCharge(tx, chargeId);
      if (!row) return null;
      await logEvent(tx, row.id, source, news.status, news.raw);
      const known = {
        providerStatus: news.status,
        updatedAt: now(),
        ...(news.providerChargeId && !row.providerChargeId
          ? { providerChargeId: news.providerChargeId }
          : {}),
        ...(news.installmentValueCents !== undefined
          ? { installmentValueCents: news.installmentValueCents }
          : {}),
      };
      const handler = handlerFor(row.purpose);
      switch (news.status) {
        case 'paid':
        case 'settled': {
          if (row.status === 'CONCLUIDA' || row.status === 'DEVOLVIDA') return { row };
          const paid = {
            ...known,
            paidAt: now(),
            ...(news.totalCents ? { amountCents: news.totalCents } : {}),
            ...(news.installments ? { installments: news.installments } : {}),
          };
          // What the card was charged, interest included: all of it goes back.
          const chargedCents = news.totalCents || row.amountCents;
          if (row.personalDataClearedAt) {
            if (OPEN.has(row.status)) await handler.release(tx, row.id, row.draft);
            const reason = OPEN.has(row.status) ? CLEARED_REASON : LATE_CARD_REASON;
            return refundInTx(tx, row, paid, reason, chargedCents);
          }
          if (!OPEN.has(row.status)) {
            // Paid after its units went back (refused, failed or given up earlier): hold them again.
            const refused: { reason?: string } = {};
            const held = await attempt(tx, (sp) => holdAgain(sp, row), true, refused);
            // Ended because what it paid for no longer stands (`endOpenFor`): that reason, the true one;
            // a limit used up meanwhile names itself; refused or given up earlier (its reason then says
            // why it was not confirmed): paid too late.
            const ended = row.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' ? row.reason : null;
            if (!held)
              return refundInTx(tx, row, paid, ended ?? refused.reason ?? LATE_CARD_REASON, chargedCents);
          }
          const confirmed = await repo.updateCharge(tx, row.id, {
            ...paid,
            status: 'CONCLUIDA',
            reason: null,
          });
          const refusal: { reason?: string } = {};
          const fulfilled = await attempt(
            tx,
            (sp) => handler.fulfil(sp, confirmed),
            handler.refusesAfterWriting?.(row.draft) ?? true,
            refusal,
          );
          if (!fulfilled) {
            await handler.release(tx, row.id, row.draft);
            return refundInTx(tx, confirmed, paid, refusal.reason ?? TAKEN_PLACE_REASON, chargedCents);
          }
          return { row: confirmed, fulfilledId: fulfilled.value.id };
        }
        case 'waiting':
        case 'approved':
          return {
            row: await repo.updateCharge(tx, row.id, {
              ...known,
              ...(row.status === 'ATIVA' ? { status: 'EM_ANALISE' as const } : {}),
            }),
          };
        case 'unpaid':
        case 'canceled': {
          if (!OPEN.has(row.status)) {
            return {
              row: await repo.updateCharge(tx, row.id, {
                ...known,
                ...(row.status === 'CONCLUIDA' ? { attention: news.status } : {}),
              }),
            };
          }
          await handler.release(tx, row.id, row.draft);
          const refused = await repo.updateCharge(tx, row.id, {
            ...known,
            status: 'RECUSADA',
            reason: news.reason ?? 'Pagamento não autorizado pela operadora do cartão.',
          });
          await clearPersonalData(tx, refused);
          return { row: refused };
        }
        case 'refunded':
        case 'contested':
          return {
            row: await repo.updateCharge(tx, row.id, {
              ...known,
              ...(row.status === 'CONCLUIDA' ? { attention: news.status } : {}),
            }),
          };
      }
    });
    if (result)
      log.info({ chargeId, outcome: news.status, status: result.row.status }, 'card charge settled');
    // The provider is asked to refund only after the commit, never inside the transaction.
    if (result && 'refund' in result) await sendRefund(result.refund);
    return result;
  }

  /** Efí's card notification: the token is read back from the provider, never taken at its word. */
  async function receiveCardNotification(token: string): Promise<void> {
    const note = await deps.provider.cardNotification(token);
    const id = note.customId && /^\d+$/.test(note.customId) ? Number(note.customId) : undefined;
    const charge = await repo.findCardCharge(deps.db, {
      ...(id ? { id } : {}),
      providerChargeId: note.chargeId,
    });
    if (!charge) {
      deps.log.warn({ providerChargeId: note.chargeId }, 'card notification for an unknown charge');
      return;
    }
    // A notification names the new status only. A payment's amounts (the total with the instalments'
    // interest, which a refund must give back whole) are read from the charge itself.
    const paid = note.status === 'paid' || note.status === 'settled';
    const amounts = paid ? cardNews(await deps.provider.getCardCharge(note.chargeId)) : {};
    await applyCard(
      charge.id,
      { ...amounts, status: note.status, providerChargeId: note.chargeId, raw: note.raw },
      'card_notification',
    );
  }

  /**
   * A webhook delivery: each txid is checked with the provider; unknown ones are ignored. Transfers
   * whose refunds (`devolucoes`) moved have those refunds read back. A failing entry does not stop the
   * others, but is reported so the provider delivers again.
   */
  async function receivePixNotifications(txids: string[], refundedEndToEndIds: string[] = []): Promise<void> {
    await refunds.receiveRefundNews(refundedEndToEndIds);
    let firstError: unknown = null;
    for (const txid of new Set(txids)) {
      const charge = await repo.findChargeByTxid(deps.db, txid);
      if (charge?.method !== 'pix') continue;
      try {
        await reconcileCharge(charge, 'webhook');
      } catch (err) {
        deps.log.error({ txid, err: errorText(err) }, 'pix notification failed');
        firstError ??= err;
      }
    }
    if (firstError) throw firstError;
  }

  /**
   * Ended unpaid charges reconciliation no longer watches for a late payment lose their draft's
   * personal data (LGPD); the row keeps what accounting needs.
   */
  async function clearEndedDrafts(): Promise<void> {
    const before = new Date(deps.now().getTime() - PERSONAL_DATA_GRACE_MS);
    for (const id of await repo.findEndedWithPersonalData(deps.db, before, RECONCILE_BATCH)) {
      await deps.db.transaction(async (tx) => {
        const row = await repo.lockCharge(tx, id);
        if (row && HELD_RELEASED.has(row.status)) await clearPersonalData(tx, row);
      });
    }
  }

  /** Every charge open, or closed by our side within a day, asked again; refunds never answered, sent. */
  async function reconcileAll(): Promise<number> {
    const ids = await repo.findToReconcile(deps.db, deps.now(), RECONCILE_BATCH);
    for (const id of ids) {
      await reconcile(id, 'reconcile').catch((err: unknown) =>
        deps.log.error({ chargeId: id, err: errorText(err) }, 'charge reconciliation failed'),
      );
    }
    await refunds.followUnsettled(RECONCILE_BATCH);
    await clearEndedDrafts();
    return ids.length;
  }

  return {
    settlePaidPix,
    reconcile,
    cardNews,
    applyCard,
    receiveCardNotification,
    receivePixNotifications,
    reconcileAll,
    reconcileCharge,
  };
}

export type Reconciliation = ReturnType<typeof createReconciliation>;
