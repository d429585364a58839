import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { mac128, macMatches } from './signed-token.ts';

/**
 * The kit-pickup ticket (docs/decisions/0026): the text of the registration's QR code is
 * `PASSADA-KIT:<registration>.<event>.<nonce>.<signature>`, where the nonce is the registration's own
 * random `checkin_nonce` and the signature an HMAC-SHA256 of the three with CHECKIN_TOKEN_SECRET, cut
 * to 128 bits so the code stays small enough for a phone camera on a cracked screen. Without the secret
 * nobody can print a valid ticket; without the database's nonce, not even with it.
 */
export interface CheckinTicket {
  registrationId: number;
  eventId: number;
  nonce: string;
}

const PREFIX = 'PASSADA-KIT:';
const TICKET = /^PASSADA-KIT:(\d{1,9})\.(\d{1,9})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{22})$/;
/** The unsigned codes sent before the ticket was signed: a sequential number anyone could print. */
const LEGACY = /^PASSADA-INSCRICAO:\d{1,9}$/;

function signature(secret: string, t: CheckinTicket): Buffer {
  return mac128(secret, `${t.registrationId}.${t.eventId}.${t.nonce}`);
}

/** The QR code's text for a registration. */
function checkinTicketText(secret: string, t: CheckinTicket): string {
  return `${PREFIX}${t.registrationId}.${t.eventId}.${t.nonce}.${signature(secret, t).toString('base64url')}`;
}

/**
 * What an offline desk holds to take a ticket without the secret (docs/decisions/0063): SHA-256 of the
 * QR text cut to 128 bits, base64url, as `ticketHash` in @passada/core/checkin-offline computes it.
 */
export function checkinTicketHash(secret: string, t: CheckinTicket): string {
  return createHash('sha256')
    .update(checkinTicketText(secret, t))
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** The QR code itself, as the e-mail and the lookup page show it (PNG data URL). */
export function checkinTicketQr(secret: string, t: CheckinTicket): Promise<string> {
  return QRCode.toDataURL(checkinTicketText(secret, t), { errorCorrectionLevel: 'M', margin: 1, width: 200 });
}

export type TicketReading =
  | { kind: 'valid'; ticket: CheckinTicket }
  /** An unsigned `PASSADA-INSCRICAO:<n>` code of the old model. */
  | { kind: 'legacy' }
  /** Shaped like a ticket, but its signature does not match: tampered or forged. */
  | { kind: 'forged' }
  /** Not a Passada code at all. */
  | { kind: 'foreign' };

/** Reads a scanned text; only the signature is checked here, the nonce against the database by the caller. */
export function readCheckinTicket(secret: string, text: string): TicketReading {
  const trimmed = text.trim();
  if (LEGACY.test(trimmed)) return { kind: 'legacy' };
  const m = TICKET.exec(trimmed);
  if (!m) return trimmed.startsWith(PREFIX) ? { kind: 'forged' } : { kind: 'foreign' };
  const ticket = { registrationId: Number(m[1]), eventId: Number(m[2]), nonce: m[3]! };
  return macMatches(m[4]!, signature(secret, ticket)) ? { kind: 'valid', ticket } : { kind: 'forged' };
}
