import { afterSaleRulesText, cancellationQuote, eventStart } from '@passada/core/after-sale';
import type { CancellationQuoteWire } from '@passada/core/contracts/after-sale';
import { centsToReais, reaisToCents } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { ChargeRow, RefundRow } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import type { Cancel } from './registration-cancel.ts';
import {
  type PaidPart,
  paidParts,
  refundByPayer,
  refundByPayerWire,
  splitRefund,
} from './registration-paid.ts';
import { type Holder, holderRegistration } from './registration-transfer.ts';
import * as repo from './registrations.repository.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

/** What the refund rows of one cancellation return together. */
const refunded = (refunds: readonly RefundRow[]) => refunds.reduce((sum, r) => sum + r.amountCents, 0);

/** The buying account as a holder; a participant's link is one already. */
const asHolder = (who: AuthUser | Holder): Holder => ('by' in who ? who : { by: 'comprador', user: who });

/**
 * What a runner does alone after the sale, within the event's rules (docs/decisions/0035-runner-after-sale.md):
 * each operation checks the rules, then runs the same steps as the shop (cancel here) and writes the
 * registration's history.
 */
export function createRunnerChanges(
  deps: RegistrationsServiceDeps,
  steps: {
    cancel: Cancel['cancel'];
    cancelParticipant: Cancel['cancelParticipant'];
    /** Whether staff refused the proof of the registration's special price (docs/decisions/0068). */
    proofRefused: (db: Db | Tx, registrationId: number) => Promise<boolean>;
  },
) {
  /** The event's rules as the regulation and registration pages say them. */
  async function rulesText(eventId: number): Promise<{ texto: string[] }> {
    const event = await deps.events.findEventRow(eventId);
    if (!event) throw notFound('Evento não encontrado.');
    const { rules } = await afterSale.findRules(deps.db, eventId);
    const waitlisted = await deps.events.findCategories(rules.waitlistCategoryIds);
    return {
      texto: afterSaleRulesText(
        rules,
        event.registrationDeadline,
        waitlisted.map((c) => c.name),
      ),
    };
  }

  /**
   * The account's own registration (the buyer's), or the one the participant's signed link opens
   * (docs/decisions/0041); any other answers 404 as if it did not exist.
   */
  const ownRegistration = (db: Db | Tx, who: AuthUser | Holder, id: number, lock?: 'lock') =>
    holderRegistration(db, asHolder(who), id, lock);

  /**
   * What cancelling returns now, by the event's rules; the reason in Portuguese when it cannot.
   * Everything paid for the registration counts (docs/decisions/0047): its own charge (its share of an
   * order) and the charges of transfers and paid changes of distance. The rules price the price paid;
   * the after-sale fees come back only with a withdrawal (CDC art. 49), otherwise they are kept.
   * `withFees` says which, for the cancel step that splits the refund across the charges.
   */
  async function quoteCancellation(
    db: Db | Tx,
    row: repo.RegistrationRow,
    charge: ChargeRow | null,
  ): Promise<CancellationQuoteWire & { withFees: boolean; parts: PaidPart[] }> {
    const event = await deps.events.findEventRow(row.eventId, db);
    const { rules } = await afterSale.findRules(db, row.eventId);
    const ownPaid =
      row.orderId !== null ? Math.min(row.totalCents, charge?.amountCents ?? 0) : (charge?.amountCents ?? 0);
    const refused = (motivo: string) => ({
      permitido: false,
      motivo,
      valor_pago: centsToReais(ownPaid),
      valor_devolvido: 0,
      valor_retido: 0,
      arrependimento: false,
      withFees: false,
      parts: [],
    });
    if (row.cancelledAt) return refused('Esta inscrição já foi cancelada.');
    if (!event || charge?.status !== 'CONCLUIDA')
      return refused('O pagamento desta inscrição não está confirmado.');
    const parts = await paidParts(deps, db, row);
    const paidCents = parts.reduce((sum, p) => sum + p.leftCents, 0);
    const feeCents = parts.reduce((sum, p) => sum + p.feeCents, 0);
    // A special price whose proof staff refused: the runner may leave with everything back until the
    // race starts, whatever the event's rules (docs/decisions/0068).
    if (deps.now() < eventStart(event.startDate, event.time) && (await steps.proofRefused(db, row.id)))
      return {
        permitido: true,
        motivo: null,
        valor_pago: centsToReais(paidCents),
        valor_devolvido: centsToReais(paidCents),
        valor_retido: 0,
        arrependimento: false,
        withFees: true,
        parts,
      };
    const quote = cancellationQuote(rules, {
      paidCents: paidCents - feeCents,
      purchasedAt: charge.paidAt ?? row.createdAt,
      start: eventStart(event.startDate, event.time),
      now: deps.now(),
    });
    if (!quote.allowed) return refused(quote.reason);
    const refundCents = quote.withdrawal ? paidCents : quote.refundCents;
    return {
      permitido: true,
      motivo: null,
      valor_pago: centsToReais(paidCents),
      valor_devolvido: centsToReais(refundCents),
      valor_retido: centsToReais(paidCents - refundCents),
      arrependimento: quote.withdrawal,
      withFees: quote.withdrawal,
      parts,
    };
  }

  const wire = ({
    withFees: _,
    parts: __,
    ...quote
  }: CancellationQuoteWire & { withFees: boolean; parts: PaidPart[] }): CancellationQuoteWire => quote;

  /**
   * GET /api/inscricoes/{id}/cancelamento/: the quote, and after a transfer what of it goes back to the
   * holder and what to whoever paid before, split across the charges as the cancel step will split it.
   */
  async function cancellation(user: AuthUser | Holder, id: number): Promise<CancellationQuoteWire> {
    const row = await ownRegistration(deps.db, user, id);
    const quote = await quoteCancellation(deps.db, row, await deps.payments.chargeById(row.chargeId));
    if (!quote.permitido) return wire(quote);
    const parts = splitRefund(quote.parts, reaisToCents(quote.valor_devolvido), quote.withFees);
    return { ...wire(quote), ...refundByPayerWire(await refundByPayer(deps, row.accountUserId, parts)) };
  }

  /**
   * POST /api/inscricoes/{id}/cancelar/: the runner cancels. Under the registration's row lock the
   * amount is priced again by the rules and must be the one the runner saw (409 otherwise); then the
   * shop's own cancellation runs (places, shirt, coupon, QR, e-mail), a picked-up kit refuses it, the
   * history records it, and the money goes back through the payments module after commit.
   */
  async function cancelByRunner(
    user: AuthUser | Holder,
    id: number,
    shownReais: number,
  ): Promise<CancellationQuoteWire> {
    // Read before the transaction (no other connection is used inside it); a paid charge's amount never
    // changes, and returnPaid locks it and checks it is still paid.
    const charge = await deps.payments.chargeById((await ownRegistration(deps.db, user, id)).chargeId);
    const done = await deps.db.transaction(async (tx) => {
      const row = await ownRegistration(tx, user, id, 'lock');
      const quote = await quoteCancellation(tx, row, charge);
      if (!quote.permitido) throw conflict(quote.motivo ?? '', 'cancelamento_nao_permitido');
      if (reaisToCents(quote.valor_devolvido) !== reaisToCents(shownReais))
        throw new HttpError(
          409,
          'O valor a devolver mudou desde que você abriu esta página. Confira o novo valor e confirme de novo.',
          'valor_divergente',
          undefined,
          { valor_devolvido: quote.valor_devolvido },
        );
      const refundCents = reaisToCents(quote.valor_devolvido);
      const result =
        row.orderId !== null
          ? await steps.cancelParticipant(tx, id, {
              reason: 'Inscrição cancelada pelo participante.',
              refundCents,
              withFees: quote.withFees,
            })
          : await steps.cancel(tx, id, undefined, {
              by: 'participante',
              refundCents,
              withFees: quote.withFees,
            });
      await kitPickedUp(
        tx,
        result.cancelled.map((r) => r.id),
        'a inscrição não pode ser cancelada',
      );
      await afterSale.insertChange(tx, {
        registrationId: id,
        kind: 'cancelamento',
        actor: asHolder(user).by,
        detail: { arrependimento: quote.arrependimento },
        feeCents: reaisToCents(quote.valor_retido),
        refundCents: refunded(result.refunds),
        createdAt: deps.now(),
      });
      return { ...result, quote };
    });
    // The money goes back only once the cancellation committed; a failure is retried by reconciliation.
    for (const refund of done.refunds) await deps.payments.sendRefund(refund);
    // The answer says what this cancellation did: what was paid, what comes back, what was kept.
    const back = refunded(done.refunds);
    // A transferred registration: part of the money goes back to whoever paid it, not to the holder.
    const split = await refundByPayer(deps, done.before.accountUserId, done.refunds);
    return {
      ...wire(done.quote),
      permitido: false,
      motivo: 'Esta inscrição já foi cancelada.',
      valor_devolvido: centsToReais(back),
      valor_retido: centsToReais(Math.max(0, reaisToCents(done.quote.valor_pago) - back)),
      ...refundByPayerWire(split),
    };
  }

  /**
   * One registration of an order, withdrawn with the order's "Desistir" (docs/decisions/0041): in the
   * caller's transaction, priced by its own race's rules (its share of the order, bought when it was
   * created in the paying transaction) and cancelled alone. Answers the refund to send after commit.
   */
  async function cancelInOrder(tx: Tx, id: number, reason: string) {
    const row = await repo.lockRegistration(tx, id);
    if (!row || row.orderId === null) throw notFound('Inscrição não encontrada.');
    const paid = { status: 'CONCLUIDA', amountCents: row.totalCents, paidAt: row.createdAt } as ChargeRow;
    const quote = await quoteCancellation(tx, row, paid);
    if (!quote.permitido)
      throw conflict(`${row.fullName}: ${quote.motivo ?? ''}`, 'cancelamento_nao_permitido');
    const result = await steps.cancelParticipant(tx, id, {
      reason,
      refundCents: reaisToCents(quote.valor_devolvido),
      withFees: quote.withFees,
    });
    await kitPickedUp(tx, [id], 'a inscrição não pode ser desistida');
    await afterSale.insertChange(tx, {
      registrationId: id,
      kind: 'cancelamento',
      actor: 'comprador',
      detail: { arrependimento: quote.arrependimento, pedido: row.orderId },
      feeCents: reaisToCents(quote.valor_retido),
      refundCents: refunded(result.refunds),
      createdAt: deps.now(),
    });
    return result.refunds;
  }

  return { rulesText, cancellation, cancelByRunner, cancelInOrder };
}

export type RunnerChanges = ReturnType<typeof createRunnerChanges>;
