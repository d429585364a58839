import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeliveryState } from './messages.repository.ts';

/**
 * Meta's webhooks for the WhatsApp Cloud API (docs/decisions/0050): the verification request, the
 * signature and the two parts of a `messages` notification the shop reads. Written against
 * https://developers.facebook.com/docs/graph-api/webhooks/getting-started (verification, X-Hub-Signature-256),
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status/
 * and .../reference/messages/text/ (the payloads).
 */

const SIGNATURE = /^sha256=[0-9a-fA-F]{64}$/;

/**
 * Whether `X-Hub-Signature-256` (`sha256=` + the HMAC-SHA256 of the body, hex, keyed with the app
 * secret) signs these exact bytes. Computed on the raw body as it arrived: parsing and serialising again
 * changes escapes (`\u00e9` for `é`) and the signature with them.
 */
export function signatureValid(raw: Buffer, header: unknown, appSecret: string): boolean {
  // Exactly 64 hex digits: Buffer.from(…, 'hex') stops at the first character that is not one, so a
  // valid signature followed by anything else read as valid.
  if (typeof header !== 'string' || !SIGNATURE.test(header)) return false;
  const given = Buffer.from(header.slice(7), 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Two secrets compared in constant time, whatever their lengths. */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = createHmac('sha256', 'verify').update(given).digest();
  const b = createHmac('sha256', 'verify').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A status report on a message the shop sent. */
export interface StatusReport {
  messageId: string;
  state: DeliveryState;
  at: Date;
  /** For `failed`: the first error's code and title (`131026 Message undeliverable`). */
  error: string | null;
}

/** A message a person sent to the shop's number: only who, when and the words are read. */
export interface IncomingMessage {
  messageId: string;
  from: string;
  at: Date;
  /** The text typed, or the tapped button's text or payload. */
  words: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const STATES = new Set<string>(['sent', 'delivered', 'read', 'failed']);

/** Unix seconds as Meta writes them (`"1750857384"`); the moment it arrived when absent. */
function when(v: unknown, now: Date): Date {
  const s = Number(v);
  return Number.isFinite(s) && s > 0 ? new Date(s * 1000) : now;
}

/**
 * The status reports and incoming messages of a notification, for the given business number (others
 * are skipped when `phoneNumberId` is set). Anything else (other fields, reactions, media, `errors`
 * about the number itself) is left alone.
 */
export function readNotification(
  body: unknown,
  opts: { phoneNumberId?: string | undefined; now: Date },
): { statuses: StatusReport[]; messages: IncomingMessage[] } {
  const statuses: StatusReport[] = [];
  const messages: IncomingMessage[] = [];
  const root = obj(body);
  if (root.object !== 'whatsapp_business_account') return { statuses, messages };
  for (const entry of list(root.entry)) {
    for (const change of list(entry.changes)) {
      if (change.field !== 'messages') continue;
      const value = obj(change.value);
      const number = String(obj(value.metadata).phone_number_id ?? '');
      if (opts.phoneNumberId && number !== opts.phoneNumberId) continue;
      for (const s of list(value.statuses)) {
        const state = String(s.status ?? '');
        if (typeof s.id !== 'string' || !STATES.has(state)) continue;
        const first = list(s.errors)[0];
        statuses.push({
          messageId: s.id,
          state: state as DeliveryState,
          at: when(s.timestamp, opts.now),
          error:
            state === 'failed'
              ? `${String(first?.code ?? 'sem código')} ${String(first?.title ?? first?.message ?? '')}`
                  .trim()
                  .slice(0, 500)
              : null,
        });
      }
      for (const m of list(value.messages)) {
        if (typeof m.id !== 'string' || typeof m.from !== 'string') continue;
        const interactive = obj(m.interactive);
        const words =
          m.type === 'text'
            ? obj(m.text).body
            : m.type === 'button'
              ? (obj(m.button).payload ?? obj(m.button).text)
              : m.type === 'interactive'
                ? (obj(interactive.button_reply).title ?? obj(interactive.list_reply).title)
                : undefined;
        if (typeof words !== 'string') continue;
        messages.push({
          messageId: m.id,
          from: m.from.replace(/\D/g, ''),
          at: when(m.timestamp, opts.now),
          words,
        });
      }
    }
  }
  return { statuses, messages };
}

/** What a person writes, alone, to stop the messages. */
export const OPT_OUT_WORDS = ['PARAR', 'SAIR', 'STOP', 'DESCADASTRAR'] as const;

/**
 * Whether a message asks to stop: one of OPT_OUT_WORDS and nothing else, in any case, accents or
 * punctuation around it ("Parar.", " sair ", "STOP!"). A sentence that only contains the word
 * ("não é para parar a entrega") is not a request.
 */
export function asksToStop(words: string): string | null {
  const bare = words
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toUpperCase();
  return (OPT_OUT_WORDS as readonly string[]).includes(bare) ? bare : null;
}
