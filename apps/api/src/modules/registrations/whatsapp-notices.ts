import { addDays, formatIsoDateBR } from '@passada/core/calendar';
import { formatBRL } from '@passada/core/money';
import { and, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { registrations } from '../../db/schema/index.ts';
import type { WhatsAppProvider } from '../../providers/whatsapp/index.ts';
import { templateParameter, whatsappNumber } from '../../providers/whatsapp/index.ts';
import type { EventsService } from '../events/events.service.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

/**
 * The registrations' WhatsApp messages (docs/decisions/0045), only to participants who ticked the
 * opt-in (`whatsapp_consentimento_em`), through the same durable jobs and message log as e-mail.
 */
export function createWhatsAppNotices(
  deps: Pick<RegistrationsServiceDeps, 'db' | 'env' | 'jobs'> & {
    events: Pick<EventsService, 'findEventRow' | 'eventIdsStartingOn'>;
    whatsapp: WhatsAppProvider;
    reminderDays: number;
    /** What a refused proof tells the runner (price-rule-proofs.ts), or null when it is no longer refused. */
    refusalOf: PriceRuleProofs['refusalOf'];
  },
) {
  const lookupPage = (eventId: number) => `${deps.env.publicUrl}/eventos/register/${eventId}/ja-me-inscrevi`;

  /** The confirmation, with the link to the page that shows the kit-pickup QR code. */
  async function sendConfirmation(registrationId: number): Promise<void> {
    const r = await repo.findById(deps.db, registrationId);
    const event = r ? await deps.events.findEventRow(r.eventId) : undefined;
    if (!r?.whatsappConsentAt || r.cancelledAt || !event) return;
    await deps.whatsapp.send({
      to: whatsappNumber(r.phone),
      consentAt: r.whatsappConsentAt,
      template: 'inscricao_confirmada',
      parameters: [
        r.fullName.split(' ')[0] ?? r.fullName,
        String(r.id),
        event.name,
        `${formatIsoDateBR(event.startDate)} às ${event.time}`,
        lookupPage(event.id),
      ].map(templateParameter),
    });
  }

  /** A refused proof of a special price (docs/decisions/0068): why, and what the runner may do. */
  async function sendProofRefused(registrationId: number): Promise<void> {
    const refusal = await deps.refusalOf(registrationId);
    const r = refusal?.registration;
    if (!refusal || !r?.whatsappConsentAt) return;
    await deps.whatsapp.send({
      to: whatsappNumber(r.phone),
      consentAt: r.whatsappConsentAt,
      template: 'comprovante_recusado',
      parameters: [
        r.fullName.split(' ')[0] ?? r.fullName,
        refusal.ruleName,
        String(r.id),
        refusal.event.name,
        refusal.reason,
        formatBRL(refusal.differenceCents),
        refusal.page,
      ].map(templateParameter),
    });
  }

  /**
   * Queues the reminder of every opted-in, live registration of the events starting `reminderDays`
   * from `today` (a date in the store's calendar), stamping each so it is queued once.
   */
  async function queueKitReminders(today: string): Promise<number> {
    const day = addDays(today, deps.reminderDays);
    return deps.db.transaction(async (tx) => {
      const eventIds = await deps.events.eventIdsStartingOn(day, tx);
      if (eventIds.length === 0) return 0;
      const stamped = await tx
        .update(registrations)
        .set({ kitReminderSentAt: sql`now()` })
        .where(
          and(
            isNotNull(registrations.whatsappConsentAt),
            isNull(registrations.kitReminderSentAt),
            isNull(registrations.cancelledAt),
            inArray(registrations.eventId, eventIds),
          ),
        )
        .returning({ id: registrations.id });
      for (const { id } of stamped)
        await deps.jobs.send('whatsapp.kit-reminder', { registrationId: id }, { tx });
      return stamped.length;
    });
  }

  async function sendKitReminder(registrationId: number): Promise<void> {
    const r = await repo.findById(deps.db, registrationId);
    const event = r ? await deps.events.findEventRow(r.eventId) : undefined;
    if (!r?.whatsappConsentAt || r.cancelledAt || !event) return;
    const hours = event.kitPickupHours
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join('; ');
    await deps.whatsapp.send({
      to: whatsappNumber(r.phone),
      consentAt: r.whatsappConsentAt,
      template: 'retirada_kit_lembrete',
      parameters: [
        r.fullName.split(' ')[0] ?? r.fullName,
        event.name,
        `${formatIsoDateBR(event.startDate)} às ${event.time}`,
        event.kitPickupPlace || 'o local informado na página do evento',
        hours || 'veja os horários na página do evento',
        String(r.id),
      ].map(templateParameter),
    });
  }

  return { sendConfirmation, queueKitReminders, sendKitReminder, sendProofRefused };
}
