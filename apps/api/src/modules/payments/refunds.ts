import { randomBytes } from 'node:crypto';
import { formatBRL } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import { refundNoticeMail } from './payment-rules.ts';
import type { ChargeRow, RefundRow } from './payments.repository.ts';
import * as repo from './payments.repository.ts';
import { errorInfo, errorText, type PaymentsContext } from './payments-context.ts';

/** `charges.attention` when the payer's bank refused a Pix refund: staff return the money another way. */
export const REFUND_NOT_DONE = 'devolucao_nao_realizada';
/** `charges.attention` when a card refund of part of a charge went unanswered: staff check it at Efí. */
export const REFUND_UNCERTAIN = 'devolucao_incerta';
/** A refund id of our own: Efí takes 1–35 alphanumerics. */
const newRefundId = (chargeId: number) => `dev${chargeId}${randomBytes(8).toString('hex')}`.slice(0, 35);
/** Efí's rule for a devolução id, which we also keep for card refunds. */
export const REFUND_ID = /^[a-zA-Z0-9]{1,35}$/;
/** A card refund being asked for (docs/decisions/0036). */
const SENDING = 'ENVIANDO';

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
      refundId: newRefundId(row.id),
      amountCents,
      status: 'PENDENTE',
      reason,
      createdAt: deps.now(),
    });
    await deps.jobs.send('mail.refund-notice', { chargeId: row.id }, { tx });
    return { kind: 'refund' as const, row: ended, refund };
  }

  /** The charge's provider reference must be known before money can be sent back through it. */
  function assertRefundable(row: ChargeRow): void {
    if (row.method === 'pix' ? !row.endToEndId : !row.providerChargeId)
      throw conflict(
        'O pagamento não tem a identificação da operadora; devolva-o pelo painel da Efí.',
        'pagamento_sem_identificacao',
      );
  }

  /**
   * Staff cancel what a paid charge bought (docs/architecture.md §5): inside the caller's transaction
   * the charge becomes DEVOLVIDA with a refund row for what is left of it (the whole amount unless parts
   * were already returned, docs/decisions/0036); the caller runs `sendRefund` after commit, since no
   * provider call happens inside a transaction. The caller tells the payer (its own e-mail).
   * Null when nothing is left to return (a free registration or cart, docs/decisions/0028, or a charge
   * already returned part by part): the caller only gives back what it held.
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
    const left = row.amountCents - (await repo.refundedCents(tx, row.id));
    await repo.updateCharge(tx, row.id, { status: 'DEVOLVIDA', reason, updatedAt: deps.now() });
    if (left <= 0) return null;
    assertRefundable(row);
    return repo.insertRefund(tx, {
      chargeId: row.id,
      refundId: newRefundId(row.id),
      // What is left, or less when a cancellation fee is kept (docs/decisions/0035); never more.
      amountCents: Math.min(left, Math.max(0, amountCents ?? left)),
      status: 'PENDENTE',
      reason,
      createdAt: deps.now(),
    });
  }

  /**
   * Returns part of a paid charge (a withdrawn item, a returned one, a price difference, docs/decisions/
   * 0036) inside the caller's transaction. Under the charge's row lock the refunds so far are summed, so
   * two staff refunding at once never return more than was paid: the second waits and then sees the
   * first. `refundId` is the caller's (one per request it answers): asked again with it, the first row is
   * answered and nothing is written. The charge becomes DEVOLVIDA when nothing is left. The caller runs
   * `sendRefund` after commit. Null when the charge was free (nothing to return).
   */
  async function refundPart(
    tx: Tx,
    chargeId: number,
    part: { refundId: string; amountCents: number; reason: string; requestedBy?: string },
  ): Promise<RefundRow | null> {
    if (!Number.isInteger(part.amountCents) || part.amountCents <= 0)
      throw badRequest('Informe um valor a devolver maior que zero.', 'valor_invalido', {
        valor: 'Informe um valor maior que zero.',
      });
    if (!REFUND_ID.test(part.refundId)) throw new Error(`invalid refund id ${part.refundId}`);
    const row = await repo.lockCharge(tx, chargeId);
    if (!row) throw conflict('Pagamento não encontrado.', 'pagamento_nao_confirmado');
    const earlier = await repo.findRefundById(tx, part.refundId);
    if (earlier) {
      if (earlier.chargeId !== chargeId || earlier.amountCents !== part.amountCents)
        throw conflict('Esta devolução já foi registrada com outro valor.', 'devolucao_repetida');
      return earlier;
    }
    if (row.status !== 'CONCLUIDA')
      throw conflict('Só um pagamento confirmado pode ser devolvido.', 'pagamento_nao_confirmado');
    if (row.amountCents === 0) return null;
    const left = row.amountCents - (await repo.refundedCents(tx, row.id));
    if (part.amountCents > left)
      throw conflict(
        `O valor passa do que ainda pode ser devolvido deste pagamento (${formatBRL(Math.max(left, 0))}).`,
        'devolucao_acima_do_pago',
      );
    assertRefundable(row);
    const now = deps.now();
    if (part.amountCents === left)
      await repo.updateCharge(tx, row.id, { status: 'DEVOLVIDA', reason: part.reason, updatedAt: now });
    return repo.insertRefund(tx, {
      chargeId: row.id,
      refundId: part.refundId,
      amountCents: part.amountCents,
      status: 'PENDENTE',
      reason: part.reason,
      requestedBy: part.requestedBy ?? null,
      createdAt: now,
    });
  }

  /** What is still the shop's of a charge: paid less every refund asked for. */
  async function refundable(chargeId: number): Promise<{ paidCents: number; refundedCents: number }> {
    const row = await repo.findChargeById(deps.db, chargeId);
    return { paidCents: row?.amountCents ?? 0, refundedCents: await repo.refundedCents(deps.db, chargeId) };
  }

  /**
   * What each charge was paid and has had returned so far, read on the caller's connection (inside its
   * transaction when it holds one): the registrations module sums what was paid for one registration
   * across the charges that paid it (docs/decisions/0047).
   */
  async function paidAndRefunded(
    db: Db | Tx,
    chargeIds: number[],
  ): Promise<
    Array<{
      chargeId: number;
      status: string;
      amountCents: number;
      refundedCents: number;
      paidAt: Date | null;
    }>
  > {
    const out = [];
    for (const id of new Set(chargeIds)) {
      const row = await repo.findChargeById(db, id);
      if (!row) continue;
      out.push({
        chargeId: id,
        status: row.status,
        amountCents: row.amountCents,
        refundedCents: await repo.refundedCents(db, id),
        paidAt: row.paidAt,
      });
    }
    return out;
  }

  /**
   * Asks the provider to return the money; reconciliation retries an unanswered one. A Pix devolução is
   * idempotent by our refund id. Efí keeps no refund id for cards, so a card refund is first marked
   * ENVIANDO (only one caller may send it); when its call fails it is sent again only if it returns the
   * rest of the charge (Efí's `refunded` status then tells whether it went through), otherwise staff are
   * asked to check it at Efí (`devolucao_incerta`), so a part is never refunded twice.
   */
  async function sendRefund(refund: RefundRow): Promise<void> {
    const { db, provider, now, log } = deps;
    const charge = await repo.findChargeById(db, refund.chargeId);
    if (!charge) return;
    if (charge.method === 'cartao') {
      if (!charge.providerChargeId || refund.status !== 'PENDENTE') return;
      if (!(await repo.claimRefund(db, refund.id, SENDING, now()))) return;
    }
    try {
      let answer: { status: string; raw: unknown };
      if (charge.method === 'cartao') {
        answer = await provider.refundCard({
          providerChargeId: charge.providerChargeId!,
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
      if (charge.method === 'cartao') {
        const rest = (await repo.refundedCents(db, charge.id)) === charge.amountCents;
        const last = (await repo.listRefunds(db, charge.id)).at(-1)?.id === refund.id;
        if (rest && last) await repo.setRefundStatus(db, refund.id, 'PENDENTE', now());
        else await repo.updateCharge(db, charge.id, { attention: REFUND_UNCERTAIN, updatedAt: now() });
      }
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
    for (const endToEndId of new Set(endToEndIds))
      for (const refund of await repo.findRefundsByEndToEndId(deps.db, endToEndId)) await follow(refund);
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

  return {
    refundInTx,
    returnPaid,
    refundPart,
    refundable,
    paidAndRefunded,
    sendRefund,
    sendRefundNotice,
    followUnsettled,
    receiveRefundNews,
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
