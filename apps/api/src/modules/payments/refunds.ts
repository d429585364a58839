import { randomBytes } from 'node:crypto';
import type { Tx } from '../../db/client.ts';
import { conflict } from '../../plugins/errors.ts';
import { refundNoticeMail } from './payment-rules.ts';
import type { ChargeRow, RefundRow } from './payments.repository.ts';
import * as repo from './payments.repository.ts';
import { errorInfo, errorText, type PaymentsContext } from './payments-context.ts';

/** `charges.attention` when the payer's bank refused a Pix refund: staff return the money another way. */
export const REFUND_NOT_DONE = 'devolucao_nao_realizada';

/**
 * Money going back to a payer: the refund row written with the charge's move, the provider asked
 * after the commit (retried by reconciliation when unanswered), and the e-mail telling the payer.
 */
export function createRefunds(ctx: PaymentsContext) {
  const { deps, handlerFor, logEvent } = ctx;

  async function refundInTx(
    tx: Tx,
    row: ChargeRow,
    paid: Partial<repo.NewCharge>,
    reason: string,
    amountCents = row.amountCents,
  ) {
    const ended = await repo.updateCharge(tx, row.id, { status: 'DEVOLVIDA', reason, ...paid });
    const refund = await repo.insertRefund(tx, {
      chargeId: row.id,
      refundId: `dev${row.id}${randomBytes(8).toString('hex')}`.slice(0, 35),
      amountCents,
      status: 'PENDENTE',
      reason,
      createdAt: deps.now(),
    });
    await deps.jobs.send('mail.refund-notice', { chargeId: row.id }, { tx });
    return { kind: 'refund' as const, row: ended, refund };
  }

  /**
   * Staff cancel what a paid charge bought (docs/architecture.md §5): inside the caller's transaction
   * the charge becomes DEVOLVIDA with its refund row; the caller runs `sendRefund` after commit, since
   * no provider call happens inside a transaction. The caller tells the payer (its own e-mail).
   * Null when nothing was paid (a free registration or cart, docs/decisions/0028): there is nothing to
   * return, the charge stays as it is and the caller only gives back what it held.
   */
  async function returnPaid(
    tx: Tx,
    chargeId: number,
    reason: string,
    /** Less than what was paid when a cancellation fee is kept (docs/decisions/0035); never more. */
    amountCents?: number,
  ): Promise<RefundRow | null> {
    const row = await repo.lockCharge(tx, chargeId);
    if (row?.status !== 'CONCLUIDA')
      throw conflict('Só um pagamento confirmado pode ser devolvido.', 'pagamento_nao_confirmado');
    if (row.amountCents === 0) return null;
    if (row.method === 'pix' ? !row.endToEndId : !row.providerChargeId)
      throw conflict(
        'O pagamento não tem a identificação da operadora; devolva-o pelo painel da Efí.',
        'pagamento_sem_identificacao',
      );
    await repo.updateCharge(tx, row.id, { status: 'DEVOLVIDA', reason, updatedAt: deps.now() });
    return repo.insertRefund(tx, {
      chargeId: row.id,
      refundId: `dev${row.id}${randomBytes(8).toString('hex')}`.slice(0, 35),
      amountCents: Math.min(row.amountCents, Math.max(0, amountCents ?? row.amountCents)),
      status: 'PENDENTE',
      reason,
      createdAt: deps.now(),
    });
  }

  /**
   * Asks the provider to return the money (Pix by our refund id, card in full); asking again never
   * refunds twice, and reconciliation retries an unanswered one.
   */
  async function sendRefund(refund: RefundRow): Promise<void> {
    const { db, provider, now, log } = deps;
    const charge = await repo.findChargeById(db, refund.chargeId);
    if (!charge) return;
    try {
      let answer: { status: string; raw: unknown };
      if (charge.method === 'cartao') {
        if (!charge.providerChargeId) return;
        answer = await provider.refundCard({
          providerChargeId: charge.providerChargeId,
          amountCents: refund.amountCents,
        });
      } else {
        if (!charge.endToEndId) return;
        answer = await provider.refundPix({
          endToEndId: charge.endToEndId,
          refundId: refund.refundId,
          amountCents: refund.amountCents,
        });
      }
      await db.transaction(async (tx) => {
        // EM_PROCESSAMENTO is Efí's "requested": the money is on its way.
        await repo.setRefundStatus(tx, refund.id, answer.status, now());
        await logEvent(tx, charge.id, 'refund', answer.status, answer.raw);
      });
    } catch (err) {
      await logEvent(db, charge.id, 'refund', 'error', errorInfo(err));
      log.error({ chargeId: charge.id, err: errorText(err) }, 'refund failed; reconciliation retries it');
    }
  }

  /**
   * Reads a Pix refund back from the provider: its status is stored and logged; one the payer's bank
   * did not take (NAO_REALIZADO) flags the charge for staff, since the money is still with the shop.
   */
  async function readBack(refund: RefundRow): Promise<void> {
    const { db, provider, now, log } = deps;
    const charge = await repo.findChargeById(db, refund.chargeId);
    // Card refunds are final when Efí answers them; a Pix one is settled by the payer's bank later.
    if (charge?.method !== 'pix' || !charge.endToEndId) return;
    const state = await provider.refundStatus({ endToEndId: charge.endToEndId, refundId: refund.refundId });
    await db.transaction(async (tx) => {
      await logEvent(tx, charge.id, 'refund', state.status, state.raw);
      if (state.status !== refund.status) await repo.setRefundStatus(tx, refund.id, state.status, now());
      if (state.status === 'NAO_REALIZADO')
        await repo.updateCharge(tx, charge.id, { attention: REFUND_NOT_DONE, updatedAt: now() });
    });
    if (state.status !== refund.status)
      log.info({ chargeId: charge.id, status: state.status }, 'refund status changed');
  }

  /** Where a refund stands, asked of the provider: one never answered is sent, one under way read back. */
  async function follow(refund: RefundRow): Promise<void> {
    if (refund.status === 'PENDENTE') return sendRefund(refund);
    if (refund.status !== 'EM_PROCESSAMENTO') return;
    await readBack(refund).catch((err: unknown) =>
      deps.log.error({ chargeId: refund.chargeId, err: errorText(err) }, 'refund read-back failed'),
    );
  }

  /** Reconciliation's share: every refund PENDENTE or EM_PROCESSAMENTO is asked about again. */
  async function followUnsettled(limit: number): Promise<void> {
    for (const refund of await repo.findUnsentRefunds(deps.db, limit)) await follow(refund);
    for (const refund of await repo.findRefundsInProgress(deps.db, limit)) await follow(refund);
  }

  /**
   * The Pix webhook carried `devolucoes` for these transfers: each refund is read back from the
   * provider, never taken from the notification's body.
   */
  async function receiveRefundNews(endToEndIds: string[]): Promise<void> {
    for (const endToEndId of new Set(endToEndIds)) {
      const refund = await repo.findRefundByEndToEndId(deps.db, endToEndId);
      if (refund) await follow(refund);
    }
  }

  /** The refund e-mail job: tells the payer how much comes back, why, and when. */
  async function sendRefundNotice(chargeId: number): Promise<void> {
    const charge = await repo.findChargeById(deps.db, chargeId);
    const refund = charge ? await repo.findRefund(deps.db, chargeId) : null;
    // A draft cleared of personal data (LGPD) names nobody: the account's payments list still shows it.
    const payer =
      charge && !charge.personalDataClearedAt ? handlerFor(charge.purpose).payer?.(charge.draft) : undefined;
    // A free charge has no refund row: nothing was paid (docs/decisions/0028).
    if (!charge || !refund || !payer || charge.method === 'gratuito') return;
    await deps.mail.send(
      refundNoticeMail({ env: deps.env, payer, refund, purpose: charge.purpose, method: charge.method }),
    );
    deps.log.info({ chargeId }, 'refund notice sent');
  }

  return { refundInTx, returnPaid, sendRefund, sendRefundNotice, followUnsettled, receiveRefundNews };
}

export type Refunds = ReturnType<typeof createRefunds>;
