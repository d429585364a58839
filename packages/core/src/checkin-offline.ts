import type { DeskPickup, DeskSnapshot, DeskTicket } from './contracts/painel-checkin-desk.ts';
import { toSearchText } from './text.ts';

/**
 * Deciding a scan at a kit desk without the network (docs/decisions/0063), from the snapshot the desk
 * keeps: the same answers the server gives online, bar who picked the kit up at another desk since the
 * snapshot. The QR code (`PASSADA-KIT:<registration>.<event>.<nonce>.<signature>`, 0026) is taken when
 * its SHA-256 is the one the snapshot holds for that registration: the desk never holds the signing
 * secret, and a hash does not give the code back, so the snapshot cannot print tickets.
 */

const TICKET = /^PASSADA-KIT:(\d{1,9})\.(\d{1,9})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{22})$/;
const PREFIX = 'PASSADA-KIT:';
const LEGACY = /^PASSADA-INSCRICAO:\d{1,9}$/;

/** SHA-256 of a ticket's text cut to 128 bits, base64url: the snapshot's `codigo_hash`. */
export async function ticketHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest.subarray(0, 16)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The same texts as the server's refusals (modules/registrations), said offline. */
export const OFFLINE_MESSAGES = {
  foreign: 'Este QR code não é de uma inscrição da Passada.',
  legacy:
    'Este QR code é do modelo antigo, sem assinatura, e não vale mais para a retirada do kit. Peça o QR code atual ou busque pelo nome e confira um documento com foto.',
  forged:
    'QR code inválido: o código não confere (alterado ou falsificado). Não entregue o kit; busque pelo nome e confira um documento com foto.',
  transferred:
    'Inscrição transferida: o código foi substituído. Este QR code é de quem tinha a inscrição antes; busque pelo nome e confira um documento com foto.',
  otherEvent: 'Este QR code é de outro evento: o kit não é entregue neste check-in.',
} as const;

export type OfflineDecision =
  | { kind: 'pode_retirar'; ticket: DeskTicket }
  /** Already out: in the snapshot, or by a pickup of this desk waiting to be sent. */
  | { kind: 'retirado'; ticket: DeskTicket; retirada: DeskPickup }
  | { kind: 'cancelada'; ticket: DeskTicket }
  | { kind: 'recusado'; message: string };

/** The snapshot's registrations by number, built once per snapshot. */
export type DeskIndex = Map<number, DeskTicket>;
export const indexSnapshot = (snapshot: Pick<DeskSnapshot, 'inscricoes'>): DeskIndex =>
  new Map(snapshot.inscricoes.map((t) => [t.id, t]));

/**
 * A scanned text against the snapshot of event `eventId`; `pending` holds the pickups this desk made
 * and has not sent yet, which count as handed out.
 */
export async function decideOfflineScan(
  eventId: number,
  index: DeskIndex,
  text: string,
  pending: ReadonlyMap<number, DeskPickup> = new Map(),
): Promise<OfflineDecision> {
  const trimmed = text.trim();
  if (LEGACY.test(trimmed)) return { kind: 'recusado', message: OFFLINE_MESSAGES.legacy };
  const m = TICKET.exec(trimmed);
  if (!m)
    return {
      kind: 'recusado',
      message: trimmed.startsWith(PREFIX) ? OFFLINE_MESSAGES.forged : OFFLINE_MESSAGES.foreign,
    };
  if (Number(m[2]) !== eventId) return { kind: 'recusado', message: OFFLINE_MESSAGES.otherEvent };
  const ticket = index.get(Number(m[1]));
  if (!ticket) return { kind: 'recusado', message: OFFLINE_MESSAGES.forged };
  if ((await ticketHash(trimmed)) !== ticket.codigo_hash)
    return {
      kind: 'recusado',
      message: ticket.transferida ? OFFLINE_MESSAGES.transferred : OFFLINE_MESSAGES.forged,
    };
  return decideOfflineTicket(ticket, pending);
}

/** A registration found by a search (or a scan already checked) against what the desk knows. */
export function decideOfflineTicket(
  ticket: DeskTicket,
  pending: ReadonlyMap<number, DeskPickup> = new Map(),
): OfflineDecision {
  if (ticket.cancelada) return { kind: 'cancelada', ticket };
  const out = pending.get(ticket.id) ?? ticket.retirada;
  return out ? { kind: 'retirado', ticket, retirada: out } : { kind: 'pode_retirar', ticket };
}

/**
 * The snapshot searched like the online desk: part of the name (accents and case ignored), the CPF's
 * visible digits, the registration's number or a bib. At most `limit` results.
 */
export function searchSnapshot(index: DeskIndex, query: string, limit = 30): DeskTicket[] {
  const q = query.trim();
  if (q.length < 2) return [];
  const number = /^\d{1,9}$/.test(q) ? Number(q) : undefined;
  const name = toSearchText(q);
  const digits = q.replace(/\D/g, '');
  const found: DeskTicket[] = [];
  for (const t of index.values()) {
    const hit =
      (number !== undefined && (t.id === number || t.categorias.some((c) => c.numero_peito === number))) ||
      toSearchText(t.nome).includes(name) ||
      (digits.length >= 3 && t.cpf.replace(/\D/g, '').includes(digits));
    if (hit) found.push(t);
    if (found.length >= limit) break;
  }
  return found;
}
