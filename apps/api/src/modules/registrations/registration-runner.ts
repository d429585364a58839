import { afterSaleRulesText, cancellationQuote, eventStart } from '@passada/core/after-sale';
import type { CancellationQuoteWire } from '@passada/core/contracts/after-sale';
import { centsToReais, reaisToCents } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { ChargeRow } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import type { Cancel } from './registration-cancel.ts';
import { type Holder, holderRegistration } from './registration-transfer.ts';
import * as repo from './registrations.repository.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

/** The buying account as a holder; a participant's link is one already. */
const asHolder = (who: AuthUser | Holder): Holder => ('by' in who ? who : { by: 'comprador', user: who });

/**
 * What a runner does alone after the sale, within the event's rules (docs/decisions/0035-runner-after-sale.md):
 * each operation checks the rules, then runs the same steps as the shop (cancel here) and writes the
 * registration's history.
 */
export function createRunnerChanges(
  deps: RegistrationsServiceDeps,
  steps: { cancel: Cancel['cancel']; cancelParticipant: Cancel['cancelParticipant'] },
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

  /** What cancelling returns now, by the event's rules; the reason in Portuguese when it cannot. */
  async function quoteCancellation(
    db: Db | Tx,
    row: repo.RegistrationRow,
    charge: ChargeRow | null,
  ): Promise<CancellationQuoteWire> {
    const event = await deps.events.findEventRow(row.eventId, db);
    const { rules } = await afterSale.findRules(db, row.eventId);
    const chargePaid = charge?.amountCents ?? 0;
    const refused = (motivo: string): CancellationQuoteWire => ({
      permitido: false,
      motivo,
      valor_pago: centsToReais(row.orderId !== null ? row.totalCents : chargePaid),
      valor_devolvido: 0,
      valor_retido: 0,
      arrependimento: false,
    });
    if (row.cancelledAt) return refused('Esta inscrição já foi cancelada.');
    // One participant of an order: their own share is what the rules price (docs/decisions/0041).
    const paidCents = row.orderId !== null ? Math.min(row.totalCents, charge?.amountCents ?? 0) : chargePaid;
    if (!event || charge?.status !== 'CONCLUIDA')
      return refused('O pagamento desta inscrição não está confirmado.');
    const quote = cancellationQuote(rules, {
      paidCents,
      purchasedAt: charge.paidAt ?? row.createdAt,
      start: eventStart(event.startDate, event.time),
      now: deps.now(),
    });
    if (!quote.allowed) return refused(quote.reason);
    return {
      permitido: true,
      motivo: null,
      valor_pago: centsToReais(paidCents),
      valor_devolvido: centsToReais(quote.refundCents),
      valor_retido: centsToReais(quote.keptCents),
      arrependimento: quote.withdrawal,
    };
  }

  /** GET /api/inscricoes/{id}/cancelamento/ */
  async function cancellation(user: AuthUser | Holder, id: number): Promise<CancellationQuoteWire> {
    const row = await ownRegistration(deps.db, user, id);
    return quoteCancellation(deps.db, row, await deps.payments.chargeById(row.chargeId));
  }

  /**
   * POST /api/inscricoes/{id}/cancelar/: the runner cancels. Under the registration's row lock the
   * amount is priced again by the rules and must be the one the runner saw (409 otherwise); then the
   * shop's own cancellation runs (places, shirt, coupon, QR, e-mail), a picked-up kit refuses it, the
   * history records it, and the money goes back through the payments module after commit.
   */
  async function cancelByRunner(user: AuthUser | Holder, id: number, shownReais: number): Promise<void> {
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
            })
          : await steps.cancel(tx, id, undefined, { by: 'participante', refundCents });
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
        refundCents: result.refund?.amountCents ?? 0,
        createdAt: deps.now(),
      });
      return result;
    });
    // The money goes back only once the cancellation committed; a failure is retried by reconciliation.
    if (done.refund) await deps.payments.sendRefund(done.refund);
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
    });
    await kitPickedUp(tx, [id], 'a inscrição não pode ser desistida');
    await afterSale.insertChange(tx, {
      registrationId: id,
      kind: 'cancelamento',
      actor: 'comprador',
      detail: { arrependimento: quote.arrependimento, pedido: row.orderId },
      feeCents: reaisToCents(quote.valor_retido),
      refundCents: result.refund?.amountCents ?? 0,
      createdAt: deps.now(),
    });
    return result.refund;
  }

  return { rulesText, cancellation, cancelByRunner, cancelInOrder };
}
