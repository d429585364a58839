import { eventStart } from '@passada/core/after-sale';
import type { ParticipantLinkView } from '@passada/core/contracts/after-sale';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations } from '../../db/schema/index.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { HttpError } from '../../plugins/errors.ts';
import { participantLinkMail } from './after-sale-mail.ts';
import type { Holder } from './holder.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import { mac128, macMatches } from './signed-token.ts';

/**
 * The link e-mailed to a participant (docs/decisions/0041): `<registration>-<expiry, epoch
 * seconds>-<HMAC-SHA256, 128 bits>` (no dot: the web server reads a dotted path as a file), signed with CHECKIN_TOKEN_SECRET over a message of its own
 * (`participant-link:` in front, so a kit ticket's signature never is a link's) and the
 * registration's `participant_link_nonce`. It opens that one registration's actions (cancel,
 * transfer) without the buyer's account. A changed byte, an expired link, or one signed with a nonce
 * since drawn again (the link was sent anew, or the registration changed holder) is refused.
 */
const LINK = /^(\d{1,9})-(\d{1,12})-([A-Za-z0-9_-]{22})$/;

function signature(secret: string, registrationId: number, expires: number, nonce: string): Buffer {
  return mac128(secret, `participant-link:${registrationId}.${expires}.${nonce}`);
}

/** The token of a link to `registrationId`, valid until `expiresAt`. */
export function participantLinkToken(
  secret: string,
  link: { registrationId: number; expiresAt: Date; nonce: string },
): string {
  const expires = Math.floor(link.expiresAt.getTime() / 1000);
  return `${link.registrationId}-${expires}-${signature(secret, link.registrationId, expires, link.nonce).toString('base64url')}`;
}

export const LINK_REFUSED =
  'Este link não vale mais (foi alterado, expirou ou um link mais novo foi enviado). Use o link do e-mail mais recente.';

/** Reads a link's token against the database: the registration it opens, or 403 `link_invalido`. */
export async function readParticipantLink(
  db: Db | Tx,
  secret: string,
  token: string,
  now: Date,
): Promise<{ registrationId: number }> {
  const refused = new HttpError(403, LINK_REFUSED, 'link_invalido');
  const m = LINK.exec(token);
  if (!m) throw refused;
  const registrationId = Number(m[1]);
  const expires = Number(m[2]);
  if (expires * 1000 <= now.getTime()) throw refused;
  const [row] = await db
    .select({ nonce: registrations.participantLinkNonce })
    .from(registrations)
    .where(eq(registrations.id, registrationId));
  if (!row) throw refused;
  if (!macMatches(m[3]!, signature(secret, registrationId, expires, row.nonce))) throw refused;
  return { registrationId };
}

/** Links of the registrations of a service: their URL, their reading, and their revocation. */
export function createParticipantLinks(deps: RegistrationsServiceDeps) {
  /** The link's URL; it lasts until a day after the race starts (nothing can be done later). */
  async function linkFor(row: repo.RegistrationRow): Promise<string | null> {
    const event = await deps.events.findEventRow(row.eventId);
    if (!event) return null;
    const expiresAt = new Date(eventStart(event.startDate, event.time).getTime() + 24 * 3600_000);
    const token = participantLinkToken(deps.env.CHECKIN_TOKEN_SECRET, {
      registrationId: row.id,
      expiresAt,
      nonce: row.participantLinkNonce,
    });
    return `${deps.env.publicUrl}/inscricoes/link/${token}`;
  }

  /** The holder a link's token stands for (403 when refused); `db` the caller's transaction, if any. */
  async function holderOf(token: string, db: Db | Tx = deps.db): Promise<Holder & { by: 'participante' }> {
    const { registrationId } = await readParticipantLink(
      db,
      deps.env.CHECKIN_TOKEN_SECRET,
      token,
      deps.now(),
    );
    return { by: 'participante', registrationId };
  }

  /**
   * POST /api/inscricoes/{id}/link/: the buyer sends the participant a new link; drawing a new nonce
   * revokes every link sent before.
   */
  async function resend(userId: number, id: number): Promise<void> {
    const row = await deps.db.transaction(async (tx) => {
      const locked = await repo.lockRegistration(tx, id);
      if (!locked || locked.accountUserId !== userId)
        throw new HttpError(404, 'Inscrição não encontrada.', 'not_found');
      if (locked.cancelledAt)
        throw new HttpError(409, 'Esta inscrição foi cancelada.', 'inscricao_cancelada');
      const [fresh] = await tx
        .update(registrations)
        .set({ participantLinkNonce: sql`replace(gen_random_uuid()::text, '-', '')` })
        .where(eq(registrations.id, id))
        .returning();
      return fresh!;
    });
    await sendLink(row);
  }

  /** The e-mail with the link, to the participant's own address. */
  async function sendLink(row: repo.RegistrationRow): Promise<void> {
    const url = await linkFor(row);
    if (!url) return;
    await deps.mail.send(participantLinkMail({ env: deps.env, registration: row, url }));
  }

  /**
   * Who a charge's draft acts for and on which registration: the participant's link (`link`, its token)
   * opens its own, otherwise the signed-in account names its registration (`inscricao`). `id` is NaN when
   * the draft names none; the caller refuses it with its own words.
   */
  async function holderOfDraft(
    tx: Tx,
    user: AuthUser,
    part: { inscricao?: unknown; link?: unknown },
  ): Promise<{ holder: Holder; id: number }> {
    const holder: Holder =
      typeof part.link === 'string' ? await holderOf(part.link, tx) : { by: 'comprador', user };
    return { holder, id: Number(holder.by === 'participante' ? holder.registrationId : part.inscricao) };
  }

  return { linkFor, holderOf, holderOfDraft, resend };
}

export type ParticipantLinks = ReturnType<typeof createParticipantLinks>;
export type { ParticipantLinkView };
