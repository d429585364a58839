import { afterSaleRulesText, cancellationQuote, eventStart } from '@passada/core/after-sale';
import type { CancellationQuoteWire } from '@passada/core/contracts/after-sale';
import { centsToReais, reaisToCents } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { ChargeRow } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import type { Cancel } from './registration-cancel.ts';
import * as repo from './registrations.repository.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

/**
 * What a runner does alone after the sale, within the event's rules (docs/decisions/0035-runner-after-sale.md):
 * each operation checks the rules, then runs the same steps as the shop (cancel here) and writes the
 * registration's history.
 */
export function createRunnerChanges(deps: RegistrationsServiceDeps, steps: { cancel: Cancel['cancel'] }) {
  /** The event's rules as the regulation and registration pages say them. */
  async function rulesText(eventId: number): Promise<{ texto: string[] }> {
    const event = await deps.events.findEventRow(eventId);
    if (!event) throw notFound('Evento não encontrado.');
    const { rules } = await afterSale.findRules(deps.db, eventId);
    return { texto: afterSaleRulesText(rules, event.registrationDeadline) };
  }

  /** The account's own registration (the buyer's); any other answers 404 as if it did not exist. */
  async function ownRegistration(db: Db | Tx, user: AuthUser, id: number, lock?: 'lock') {
    const row = lock ? await repo.lockRegistration(db as Tx, id) : await repo.findById(db, id);
    if (!row || row.accountUserId !== user.id) throw notFound('Inscrição não encontrada.');
    return row;
  }

  /** What cancelling returns now, by the event's rules; the reason in Portuguese when it cannot. */
  async function quoteCancellation(
    db: Db | Tx,
    row: repo.RegistrationRow,
    charge: ChargeRow | null,
  ): Promise<CancellationQuoteWire> {
    const event = await deps.events.findEventRow(row.eventId, db);
    const { rules } = await afterSale.findRules(db, row.eventId);
    const paidCents = charge?.amountCents ?? 0;
    const refused = (motivo: string): CancellationQuoteWire => ({
      permitido: false,
      motivo,
      valor_pago: centsToReais(paidCents),
      valor_devolvido: 0,
      valor_retido: 0,
      arrependimento: false,
    });
    if (row.cancelledAt) return refused('Esta inscrição já foi cancelada.');
    if (row.orderId !== null)
      return refused(
        `Esta inscrição foi paga com o pedido nº ${row.orderId}: para cancelá-la, fale com a loja respondendo ao e-mail do pedido.`,
      );
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
  async function cancellation(user: AuthUser, id: number): Promise<CancellationQuoteWire> {
    const row = await ownRegistration(deps.db, user, id);
    return quoteCancellation(deps.db, row, await deps.payments.chargeById(row.chargeId));
  }

  /**
   * POST /api/inscricoes/{id}/cancelar/: the runner cancels. Under the registration's row lock the
   * amount is priced again by the rules and must be the one the runner saw (409 otherwise); then the
   * shop's own cancellation runs (places, shirt, coupon, QR, e-mail), a picked-up kit refuses it, the
   * history records it, and the money goes back through the payments module after commit.
   */
  async function cancelByRunner(user: AuthUser, id: number, shownReais: number): Promise<void> {
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
      const result = await steps.cancel(tx, id, undefined, { by: 'participante', refundCents });
      await kitPickedUp(
        tx,
        result.cancelled.map((r) => r.id),
        'a inscrição não pode ser cancelada',
      );
      await afterSale.insertChange(tx, {
        registrationId: id,
        kind: 'cancelamento',
        actor: 'comprador',
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

  return { rulesText, cancellation, cancelByRunner };
}
