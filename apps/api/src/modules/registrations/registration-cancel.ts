import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { RefundRow } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import { registrationCancelledMails, registrationCancelledPayerMail } from './registration-mail.ts';
import { paidParts, refundByPayer, refundByPayerWire, splitRefund } from './registration-paid.ts';
import * as transfers from './registration-transfer.repository.ts';
import { LATE } from './registration-transfer.ts';
import type { Waitlist } from './registration-waitlist.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationCancellation, RegistrationsServiceDeps } from './registrations-context.ts';
import type { TeamPlaces } from './team-places.ts';

/** Why an open charge of a cancelled registration ended (its refund's reason if paid anyway). */
const ENDED = {
  change: 'A inscrição foi cancelada antes de o pagamento da troca de distância chegar.',
  transfer: LATE.cancelled,
};

/**
 * The cancel step (docs/decisions/0022-registration-cancellation.md): a registration is stamped
 * cancelled, its charge's places and shirts go back, the money through the payments module's refund
 * path, and the people are told.
 */
export function createCancel(
  deps: RegistrationsServiceDeps,
  waitlist?: Pick<Waitlist, 'released' | 'nudge'>,
  teamPlaces?: Pick<TeamPlaces, 'giveBack'>,
) {
  /**
   * What goes back from each charge that paid for the registration (docs/decisions/0047): `refundCents`
   * (what the runner was shown, priced by the event's rules) split across them, the newest first, the
   * fees staying unless `withFees` (a withdrawal); without `refundCents` (staff cancel) everything.
   */
  async function refundParts(
    tx: Db | Tx,
    row: repo.RegistrationRow,
    opts: { refundCents?: number; withFees?: boolean },
  ) {
    const parts = await paidParts(deps, tx, row);
    if (opts.refundCents === undefined)
      return splitRefund(
        parts,
        parts.reduce((sum, p) => sum + p.leftCents, 0),
        true,
      );
    return splitRefund(parts, opts.refundCents, opts.withFees ?? false);
  }

  /** A transfer's or a change's charge gives back its part, once per cancelled registration. */
  const refundOther = (tx: Tx, id: number, part: { chargeId: number; amountCents: number }, reason: string) =>
    deps.payments.refundPart(tx, part.chargeId, {
      refundId: `cancela${id}c${part.chargeId}`,
      amountCents: part.amountCents,
      reason,
    });

  /**
   * A whole order cancelled (staff, or the buyer's withdrawal of every line): the order's charge goes
   * back whole from the orders module, and here every other charge that paid for each registration it
   * cancelled (a transfer's, a paid change of distance's, docs/decisions/0047) gives back what it has
   * left, fees included, with the same idempotent refund id as a registration cancelled alone. Answers
   * the refunds, which the caller sends after commit.
   */
  async function refundOtherCharges(tx: Tx, rows: readonly repo.RegistrationRow[], reason: string) {
    const refunds: RefundRow[] = [];
    for (const row of rows)
      for (const part of await paidParts(deps, tx, row)) {
        if (part.own || part.leftCents <= 0) continue;
        const refund = await refundOther(
          tx,
          row.id,
          { chargeId: part.chargeId, amountCents: part.leftCents },
          reason,
        );
        if (refund) refunds.push(refund);
      }
    return refunds;
  }

  /**
   * A cancelled registration's open charges (Pix and card) for a change of distance or a transfer end
   * with it: a Pix removed at the provider, a card's outcome still asked, its held place given back, and
   * paid anyway it is refunded whole with this reason. A transfer waiting for the new runner ends too,
   * so its link says so and a payment that races the cancellation is refused and returned.
   */
  async function endOpenCharges(tx: Tx, registrationId: number) {
    const pending = await transfers.pendingOf(tx, registrationId);
    if (pending) await transfers.endTransfer(tx, pending.id, 'cancelada', deps.now());
    const value = String(registrationId);
    await deps.payments.endOpenFor(
      tx,
      'registration',
      { path: ['change', 'registrationId'], value },
      ENDED.change,
    );
    await deps.payments.endOpenFor(
      tx,
      'registration',
      { path: ['transfer', 'registrationId'], value },
      ENDED.transfer,
    );
  }

  /**
   * Cancels every registration the charge paid for, in the caller's transaction: each is stamped
   * cancelled (its categories too, so the CPF may register again) and the charge's places and shirts
   * go back. The money is the caller's: the charge is returned whole.
   */
  async function cancelCharge(tx: Tx, chargeId: number, reason: string | null) {
    const cancelled = await repo.cancelByCharge(tx, chargeId, deps.now(), reason);
    for (const r of cancelled) {
      await endOpenCharges(tx, r.id);
      // A team's prepaid place goes back to the team while members may still claim (0073).
      await teamPlaces?.giveBack(tx, r);
    }
    await deps.events.releasePlaces(tx, chargeId);
    // The freed places go to the waitlist's first in line (after commit).
    await waitlist?.released(tx, chargeId);
    return cancelled;
  }

  /**
   * Staff cancel a registration bought on the direct path (docs/decisions/0022): in the caller's
   * transaction its charge is returned in full (`returnPaid`), every registration the charge paid for
   * is cancelled with its places and shirt, the coupon's use goes back and the buyer's e-mail is
   * queued. The caller sends the refund after commit. One paid inside an order is cancelled with the
   * order (409 pointing to it). A runner cancelling alone (registration-runner.ts) passes `by` and the
   * amount their event's rules return.
   */
  async function cancel(
    tx: Tx,
    id: number,
    reason?: string,
    opts: { by?: 'loja' | 'participante'; refundCents?: number; withFees?: boolean } = {},
  ): Promise<RegistrationCancellation> {
    const before = await repo.lockRegistration(tx, id);
    if (!before) throw notFound('Inscrição não encontrada.');
    if (before.cancelledAt) throw conflict('Esta inscrição já foi cancelada.', 'inscricao_cancelada');
    if (before.orderId !== null)
      throw new HttpError(
        409,
        `Esta inscrição foi paga com o pedido nº ${before.orderId}: cancele o pedido, que devolve o pagamento inteiro e cancela as inscrições dele.`,
        'inscricao_de_pedido',
        undefined,
        { pedido_id: before.orderId },
      );
    const why =
      opts.by === 'participante'
        ? 'Inscrição cancelada pelo participante.'
        : reason
          ? `Inscrição cancelada pela loja: ${reason}`
          : 'Inscrição cancelada pela loja.';
    // Everything paid for it (its charge, and those of transfers and changes of distance), or what the
    // event's rules return of it, split across those charges (docs/decisions/0047).
    const refunds: RefundRow[] = [];
    for (const part of await refundParts(tx, before, opts)) {
      const refund = part.own
        ? await deps.payments.returnPaid(tx, part.chargeId, why, part.amountCents)
        : await refundOther(tx, id, part, why);
      if (refund) refunds.push(refund);
    }
    const cancelled = await cancelCharge(tx, before.chargeId, reason ?? null);
    // The money goes back, so the coupon's use does too (its per-CPF limits count it no more).
    await deps.coupons.returnUse(tx, before.chargeId);
    for (const r of cancelled) {
      await deps.jobs.send('mail.registration-cancelled', { registrationId: r.id }, { tx });
      await deps.jobs.send('fiscal.cancel-registration', { registrationId: r.id }, { tx });
    }
    return { before, cancelled, refunds };
  }

  /**
   * One participant of a multi-participant order cancelled alone (docs/decisions/0041), in the
   * caller's transaction: only this registration is stamped, only its places and shirt go back, and
   * `refundCents` (its share, as its race's rules price it) is returned through the payments module's
   * `refundPart` (idempotent by the registration's number); the rest of the order stays untouched.
   * The caller sends the refund after commit.
   */
  async function cancelParticipant(
    tx: Tx,
    id: number,
    opts: { reason: string; refundCents: number; withFees?: boolean },
  ): Promise<RegistrationCancellation> {
    const before = await repo.lockRegistration(tx, id);
    if (!before) throw notFound('Inscrição não encontrada.');
    if (before.cancelledAt) throw conflict('Esta inscrição já foi cancelada.', 'inscricao_cancelada');
    const categories = await repo.categoriesOf(tx, id);
    const row = await repo.cancelOne(tx, id, deps.now(), opts.reason);
    if (!row) throw conflict('Esta inscrição já foi cancelada.', 'inscricao_cancelada');
    await endOpenCharges(tx, id);
    for (const c of categories) await deps.events.releaseOnePlace(tx, before.chargeId, c.id);
    if (before.kitSize) {
      const size = (await deps.events.findKitSizes(before.eventId, tx)).find(
        (k) => k.size === before.kitSize,
      );
      if (size) await deps.events.releaseOneKit(tx, before.chargeId, size.id);
    }
    // The freed place goes to the waitlist's first in line (after commit).
    await waitlist?.nudge(tx);
    const refunds: RefundRow[] = [];
    for (const part of await refundParts(tx, before, opts)) {
      const refund = part.own
        ? await deps.payments.refundPart(tx, part.chargeId, {
            refundId: `inscricao${id}`,
            amountCents: part.amountCents,
            reason: opts.reason,
          })
        : await refundOther(tx, id, part, opts.reason);
      if (refund) refunds.push(refund);
    }
    await deps.jobs.send('mail.registration-cancelled', { registrationId: id }, { tx });
    return { before, cancelled: [row], refunds };
  }

  /**
   * The e-mail telling people a registration was cancelled: the participant, and the account holder
   * when someone else. On the direct path it says how the money comes back; a registration cancelled
   * with its order only tells the participant (the buyer gets the order's e-mail with the refund).
   */
  async function sendCancellation(registrationId: number): Promise<void> {
    const registration = await repo.findById(deps.db, registrationId);
    const event = registration ? await deps.events.findEventRow(registration.eventId) : undefined;
    if (!registration?.cancelledAt || !event) return;
    const account =
      registration.accountUserId === null ? null : await deps.users.findContact(registration.accountUserId);
    const [charge, ownRefund, changes] = await Promise.all([
      deps.payments.chargeById(registration.chargeId),
      deps.payments.refundOf(registration.chargeId),
      afterSale.changesOf(deps.db, registration.id),
    ]);
    // What each charge that paid for it (its own, and the transfers' and changes', docs/decisions/0047)
    // paid and gave back, by payer: the holder is told their part, each other payer theirs.
    const paidBy = new Map<number | null, { paidCents: number; refundCents: number; method: string }>();
    const count = (userId: number | null, method: string, paid: number, back: number) => {
      // Without an account (a free or old registration) everything is the holder's.
      const who = registration.accountUserId === null ? null : userId;
      const sum = paidBy.get(who) ?? { paidCents: 0, refundCents: 0, method };
      paidBy.set(who, {
        paidCents: sum.paidCents + paid,
        refundCents: sum.refundCents + back,
        method: sum.method,
      });
    };
    if (charge) count(charge.userId, charge.method, charge.amountCents, ownRefund?.amountCents ?? 0);
    for (const c of changes) {
      const other = Number((c.detail as { cobranca?: unknown }).cobranca);
      if (!Number.isInteger(other) || other <= 0 || other === registration.chargeId) continue;
      let back = 0;
      for (const r of await deps.payments.refundsOf(other))
        if (r.refundId === `cancela${registration.id}c${other}`) back += r.amountCents;
      const paying = await deps.payments.chargeById(other);
      count(paying?.userId ?? registration.accountUserId, paying?.method ?? 'pix', c.feeCents, back);
    }
    const holderKey = registration.accountUserId;
    const mine = paidBy.get(holderKey);
    const others = [...paidBy].filter(([userId, p]) => userId !== holderKey && p.refundCents > 0);
    const refund = mine && mine.refundCents > 0 ? { amountCents: mine.refundCents } : null;
    // One participant of an order cancelled alone (docs/decisions/0041): told like a direct registration,
    // with the share of the order that comes back.
    const alone = registration.orderId !== null ? changes.find((c) => c.kind === 'cancelamento') : undefined;
    const messages = registrationCancelledMails({
      env: deps.env,
      event,
      registration,
      account,
      charge: charge ? { amountCents: mine?.paidCents ?? 0, method: mine?.method ?? charge.method } : null,
      refund,
      toOthersCents: others.reduce((sum, [, p]) => sum + p.refundCents, 0),
      alone: alone ? { refundCents: alone.refundCents } : null,
    });
    // Each other payer (the one who paid before a transfer) is told their own part.
    for (const [userId, p] of others) {
      const payer = userId === null ? null : await deps.users.findContact(userId);
      if (payer)
        messages.push(
          registrationCancelledPayerMail({
            env: deps.env,
            event,
            registration,
            payer,
            refund: { amountCents: p.refundCents, method: p.method },
          }),
        );
    }
    const results = await Promise.allSettled(messages.map((m) => deps.mail.send(m)));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration cancellation e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }

  /**
   * The back office's cancel by payer: before it runs, what staff's cancellation would return (every
   * charge's part left, fees included, as `cancel` splits it); given the refunds a cancellation made,
   * what they returned. Null for a registration already cancelled when no refunds are given.
   */
  async function staffRefundByPayer(id: number, refunds?: readonly RefundRow[]) {
    const row = await repo.findById(deps.db, id);
    if (!row || (!refunds && row.cancelledAt)) return null;
    const split = await refundByPayer(
      deps,
      row.accountUserId,
      refunds ?? (await refundParts(deps.db, row, {})),
    );
    return { valor_devolvido: centsToReais(split.totalCents), ...refundByPayerWire(split) };
  }

  return {
    cancelCharge,
    refundOtherCharges,
    cancel,
    cancelParticipant,
    sendCancellation,
    staffRefundByPayer,
  };
}

export type Cancel = ReturnType<typeof createCancel>;
