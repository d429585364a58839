import { formatIsoDateBR } from '@passada/core/calendar';
import { companyIdentityLine } from '@passada/core/company';
import { maskCpf } from '@passada/core/documents';
import { formatBRL } from '@passada/core/money';
import type { Tx } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationCancellation, RegistrationsServiceDeps } from './registrations-context.ts';

/**
 * The cancel step (docs/decisions/0022-registration-cancellation.md): a registration is stamped
 * cancelled, its charge's places and shirts go back, the money through the payments module's refund
 * path, and the people are told.
 */
export function createCancel(deps: RegistrationsServiceDeps) {
  /**
   * Cancels every registration the charge paid for, in the caller's transaction: each is stamped
   * cancelled (its categories too, so the CPF may register again) and the charge's places and shirts
   * go back. The money is the caller's: the charge is returned whole.
   */
  async function cancelCharge(tx: Tx, chargeId: number, reason: string | null) {
    const cancelled = await repo.cancelByCharge(tx, chargeId, deps.now(), reason);
    await deps.events.releasePlaces(tx, chargeId);
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
    opts: { by?: 'loja' | 'participante'; refundCents?: number } = {},
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
    // The event's rules may keep all of it (a fee as large as the price): nothing goes back then.
    const refund =
      opts.refundCents === 0
        ? null
        : await deps.payments.returnPaid(
            tx,
            before.chargeId,
            opts.by === 'participante'
              ? 'Inscrição cancelada pelo participante.'
              : reason
                ? `Inscrição cancelada pela loja: ${reason}`
                : 'Inscrição cancelada pela loja.',
            opts.refundCents,
          );
    const cancelled = await cancelCharge(tx, before.chargeId, reason ?? null);
    // The money goes back, so the coupon's use does too (its per-CPF limits count it no more).
    await deps.coupons.returnUse(tx, before.chargeId);
    for (const r of cancelled)
      await deps.jobs.send('mail.registration-cancelled', { registrationId: r.id }, { tx });
    return { before, cancelled, refund };
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
    const [charge, refund] = await Promise.all([
      deps.payments.chargeById(registration.chargeId),
      deps.payments.refundOf(registration.chargeId),
    ]);
    const inOrder = registration.orderId !== null;
    const amount = formatBRL(refund?.amountCents ?? charge?.amountCents ?? registration.totalCents);
    // A fee kept by the event's rules (docs/decisions/0035): the e-mail says what comes back.
    const whole =
      !refund || !charge || refund.amountCents === charge.amountCents ? 'do valor integral de ' : 'de ';
    // Nothing was paid for it (a free registration, or a cart of total zero): nothing to return.
    const nothingPaid = charge?.amountCents === 0;
    const money = nothingPaid
      ? ['Esta inscrição era gratuita: não há valor a devolver.']
      : !refund && !inOrder
        ? ['Pelas regras de cancelamento do evento, não há valor a devolver.']
        : inOrder
          ? [`O pagamento do pedido nº ${registration.orderId} será devolvido a quem o pagou.`]
          : charge?.method === 'cartao'
            ? [
                `Pedimos à operadora o estorno ${whole}${amount} no mesmo cartão de crédito.`,
                'O estorno aparece na fatura do cartão em até duas faturas, conforme o banco emissor.',
              ]
            : [
                `Pedimos a devolução ${whole}${amount} por Pix, para a conta de onde ele saiu.`,
                'A devolução costuma chegar em poucos minutos e pode levar até 1 dia útil, conforme o seu banco.',
              ];
    const details = [
      `Evento: ${event.name}`,
      `Data: ${formatIsoDateBR(event.startDate)} às ${event.time}`,
      `Participante: ${registration.fullName} (CPF ${maskCpf(registration.cpf)})`,
      `Inscrição nº ${registration.id}`,
      ...(registration.cancelReason ? [`Motivo: ${registration.cancelReason}`] : []),
      '',
      'A vaga e a camisa do kit foram liberadas, e o QR code desta inscrição não vale mais para a retirada do kit.',
      ...money,
      '',
      `Dúvidas? Responda a este e-mail. Acompanhe em ${deps.env.publicUrl}/eventos/register/${event.id}/ja-me-inscrevi.`,
      '',
      companyIdentityLine(),
    ];
    const subject = `${deps.env.STORE_NAME}: inscrição nº ${registration.id} cancelada`;
    const recipients = [
      {
        to: registration.email,
        text: [
          `Olá, ${registration.fullName}!`,
          '',
          `Sua inscrição em ${event.name} foi cancelada.`,
          '',
          ...details,
        ],
      },
    ];
    if (!inOrder && account && account.email.toLowerCase() !== registration.email.toLowerCase())
      recipients.push({
        to: account.email,
        text: [
          `Olá, ${account.fullName}!`,
          '',
          `A inscrição que você fez para ${registration.fullName} em ${event.name} foi cancelada.`,
          '',
          ...details,
        ],
      });
    // In an order, the account holder paid and gets the order's own e-mail; only another participant is told here.
    const to =
      inOrder && account && account.email.toLowerCase() === registration.email.toLowerCase()
        ? []
        : recipients;
    const results = await Promise.allSettled(
      to.map((r) => deps.mail.send({ to: r.to, subject, text: r.text.join('\n') })),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      deps.log.error({ registrationId }, 'registration cancellation e-mail failed');
      throw (failed as PromiseRejectedResult).reason;
    }
  }

  return { cancelCharge, cancel, sendCancellation };
}

export type Cancel = ReturnType<typeof createCancel>;
