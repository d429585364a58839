import { formatStoreDateTime } from '@passada/core/calendar';
import type { BibAssignment } from '@passada/core/contracts/painel';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations } from '../../db/schema/index.ts';
import { HttpError } from '../../plugins/errors.ts';
import type { EventsService } from '../events/events.service.ts';
import { assignBibs, type BibEvents, shirtsBySize } from './bib-numbers.ts';
import {
  deskSnapshot,
  deskVersion,
  type OfflinePickupInput,
  recordOfflinePickup,
} from './checkin-desk.repository.ts';
import { readCheckinTicket } from './checkin-token.ts';
import { createEventReports } from './event-reports.ts';
import { listParticipants, type ParticipantFilters } from './participants.ts';
import { collectorFor, deskDelegate, pickupRules } from './pickup-rules.ts';
import * as repo from './registrations.repository.ts';
import { sameText } from './signed-token.ts';
import { createTeamPickup } from './team-pickup.ts';
import { transferredRegistrations } from './transferred-tickets.ts';

export type { ParticipantFilters, ParticipantRow } from './participants.ts';
export { participantIdentity } from './participants.ts';
export type { CheckinRow } from './registrations.repository.ts';

const QR_MESSAGES = {
  foreign: 'Este QR code não é de uma inscrição da Passada.',
  legacy:
    'Este QR code é do modelo antigo, sem assinatura, e não vale mais para a retirada do kit. Peça o QR code atual (e-mail de confirmação ou página "Já me inscrevi") ou busque pelo nome e confira um documento com foto.',
  forged:
    'QR code inválido: a assinatura não confere (código alterado ou falsificado). Não entregue o kit; busque pelo nome e confira um documento com foto.',
  transferred:
    'Inscrição transferida: o código foi substituído. Este QR code é de quem tinha a inscrição antes; o kit é de quem a recebeu: busque pelo nome e confira um documento com foto.',
} as const;

/**
 * The back office's side of registrations: participants of an event, for lists, exports and check-in,
 * bib numbers and shirts (bib-numbers.ts), the events' reports (event-reports.ts). `cancel` is the
 * service's (registrations.service.ts), passed in so this file does not import it back.
 */
export interface RegistrationsAdminDeps<C extends { cancelled: { id: number }[] }> {
  db: Db;
  now: () => Date;
  checkinSecret: string;
  events: BibEvents & Pick<EventsService, 'priceRules'>;
  cancel: (tx: Tx, id: number, reason?: string) => Promise<C>;
}

const cancelledMessage = (at: Date) =>
  `Inscrição cancelada em ${formatStoreDateTime(at)}: o kit não pode ser entregue.`;

/**
 * Refuses (409) when the kit of any of these registrations was picked up: like a parcel shipped, a
 * handed-out shirt cannot go back to the stock, so the registration (or the order that paid for it)
 * is no longer cancelled. Callers run it after their rows were written, so a check-in committing
 * meanwhile is either seen here or waits for them and then refuses.
 */
export async function kitPickedUp(db: Db | Tx, registrationIds: number[], consequence: string) {
  const [first] = await repo.findCheckins(db, registrationIds);
  if (first)
    throw new HttpError(
      409,
      `O kit da inscrição nº ${first.registrationId} já foi retirado em ${formatStoreDateTime(first.at)}: ${consequence}.`,
      'kit_retirado',
    );
}

export function createRegistrationsAdmin<C extends { cancelled: { id: number }[] }>(
  deps: RegistrationsAdminDeps<C>,
) {
  /**
   * Holds the registration's row until the transaction ends (shared: check-ins of different kits do
   * not wait for each other) and answers when it was cancelled: a check-in and a cancellation of the
   * same registration then run one after the other, never both.
   */
  async function lockForCheckin(tx: Tx, id: number): Promise<{ cancelledAt: Date | null } | null> {
    const [row] = await tx
      .select({ cancelledAt: registrations.cancelledAt })
      .from(registrations)
      .where(eq(registrations.id, id))
      .for('share');
    return row ?? null;
  }

  /**
   * The registration a scanned kit-pickup QR code proves (docs/decisions/0026): its signature must
   * match, and its nonce and event the registration's own. Anything else is refused (400) with what
   * staff should do instead.
   */
  async function registrationOfTicket(text: string): Promise<{ registrationId: number; eventId: number }> {
    const reading = readCheckinTicket(deps.checkinSecret, text);
    if (reading.kind === 'legacy') throw new HttpError(400, QR_MESSAGES.legacy, 'qr_antigo');
    if (reading.kind === 'foreign') throw new HttpError(400, QR_MESSAGES.foreign, 'qr_invalido');
    if (reading.kind === 'forged') throw new HttpError(400, QR_MESSAGES.forged, 'qr_invalido');
    const { ticket } = reading;
    const [row] = await deps.db
      .select({ eventId: registrations.eventId, nonce: registrations.checkinNonce })
      .from(registrations)
      .where(eq(registrations.id, ticket.registrationId));
    if (!row || row.eventId !== ticket.eventId) throw new HttpError(400, QR_MESSAGES.forged, 'qr_invalido');
    if (!sameText(row.nonce, ticket.nonce)) {
      // Signed right, so once issued: its nonce was drawn again when the registration changed hands.
      const transferred = await transferredRegistrations(deps.db, [ticket.registrationId]);
      throw new HttpError(
        400,
        transferred.size ? QR_MESSAGES.transferred : QR_MESSAGES.forged,
        'qr_invalido',
        undefined,
        transferred.size ? { motivo: 'transferida' } : undefined,
      );
    }
    return { registrationId: ticket.registrationId, eventId: ticket.eventId };
  }

  /** The kit pickups of these registrations (at most one each). */
  const checkins = (registrationIds: number[], db: Db | Tx = deps.db) =>
    repo.findCheckins(db, registrationIds);

  /**
   * Hands the kit out once, under the registration's row lock: a cancellation committing meanwhile
   * wins (409 `inscricao_cancelada`). Answers the new pickup, or undefined when one already exists
   * (the first wins, by primary key).
   */
  async function checkIn(
    tx: Tx,
    id: number,
    by: { id: number; name: string },
    asked: { retirou: 'titular' | 'autorizado'; itemQuantity: number | null } = {
      retirou: 'titular',
      itemQuantity: null,
    },
  ) {
    const locked = await lockForCheckin(tx, id);
    if (locked?.cancelledAt)
      throw new HttpError(409, cancelledMessage(locked.cancelledAt), 'inscricao_cancelada');
    // Who collects and the item are checked under the same lock as the pickup.
    const decided = await collectorFor(tx, id, asked);
    if ('refused' in decided) throw new HttpError(409, decided.refused.message, decided.refused.code);
    return repo.insertCheckin(tx, {
      registrationId: id,
      staffId: by.id,
      staffName: by.name,
      at: deps.now(),
      ...decided.collector,
    });
  }

  /**
   * Undoes the pickup made at `at` (the one staff saw), held like a check-in so a cancellation waits
   * and then finds the kit back at the desk. `removed` is undefined when the pickup changed or there
   * is none; `current` is then what there is now.
   */
  async function undoCheckin(tx: Tx, id: number, at: Date) {
    await lockForCheckin(tx, id);
    const removed = await repo.deleteCheckin(tx, id, at);
    const [current] = removed ? [] : await repo.findCheckins(tx, [id]);
    return { removed, current };
  }

  /** Cancels a direct registration (the service's rules), then refuses if a kit it paid for went out. */
  async function cancel(tx: Tx, id: number, reason: string | undefined) {
    const result = await deps.cancel(tx, id, reason);
    await kitPickedUp(
      tx,
      result.cancelled.map((r) => r.id),
      'a inscrição não pode ser cancelada',
    );
    return result;
  }

  return {
    /** The offline desk's snapshot of an event's tickets (docs/decisions/0063). */
    deskSnapshot: (event: { id: number; name: string }, lottery: boolean, versao: string) =>
      deskSnapshot(deps.db, deps.checkinSecret, event, lottery, versao, deps.events.priceRules.names),
    /** Its version, without reading its rows: the ETag a 304 is answered from. */
    deskVersion: (event: { id: number; name: string }, lottery: boolean) =>
      deskVersion(deps.db, deps.checkinSecret, event, lottery),
    /** One pickup scanned offline, recorded once (docs/decisions/0063). */
    recordOfflinePickup: (tx: Tx, input: OfflinePickupInput) =>
      recordOfflinePickup(tx, input, deps.now(), cancelledMessage),
    ...createEventReports(deps),
    participants: (eventId: number | null, filters?: ParticipantFilters) =>
      listParticipants(deps.db, eventId, filters),
    lockForCheckin,
    registrationOfTicket,
    checkins,
    checkIn,
    undoCheckin,
    cancel,
    kitPickedUp,
    cancelledMessage,
    assignBibs: (tx: Tx, eventId: number, input: BibAssignment) =>
      assignBibs(tx, deps.events, eventId, input),
    shirtsBySize: (eventId: number) => shirtsBySize(deps.db, deps.events, eventId),
    /** The event's delegation rules and item to bring, for the desk's card. */
    pickupRules: (eventId: number) => pickupRules(deps.db, eventId),
    deskDelegate,
    /** The team's kits in one go at the desk (docs/decisions/0067, later). */
    teamPickup: createTeamPickup({ db: deps.db, now: deps.now, lockForCheckin }),
  };
}
