import type { RegistrationOperationWire } from '@passada/core/contracts/after-sale';
import type { Participant } from '@passada/core/contracts/registrations';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import type { UsersService } from '../accounts/users.service.ts';
import type { AppliedCoupon, CouponsService } from '../coupons/coupons.service.ts';
import type { EventWavesService } from '../events/event-waves.service.ts';
import type { EventsService } from '../events/events.service.ts';
import type { PaymentsService, RefundRow } from '../payments/payments.service.ts';
import { checkinTicketQr } from './checkin-token.ts';
import type * as repo from './registrations.repository.ts';
import type { JoinedTeam } from './teams.ts';

/**
 * What the registration steps (prepare, price, hold, confirm, cancel) share: the service's
 * dependencies. Each step lives in its own file and takes these; registrations.service.ts composes them.
 */
export interface RegistrationsServiceDeps {
  db: Db;
  env: Pick<
    Env,
    | 'STORE_NAME'
    | 'publicUrl'
    | 'CHECKIN_TOKEN_SECRET'
    | 'TRANSFER_INVITE_HOURS'
    | 'TRANSFER_INVITES_PER_REGISTRATION_PER_HOUR'
    | 'TRANSFER_INVITES_PER_ACCOUNT_PER_HOUR'
    | 'TEAMS_PER_ACCOUNT_MAX'
    | 'TEAM_PLACES_PER_PURCHASE_MAX'
    | 'TEAM_INVITES_PER_IMPORT_MAX'
    | 'TEAM_INVITES_PER_CAPTAIN_PER_DAY'
    | 'TEAM_INVITE_DAYS'
    | 'dataDir'
    | 'PHOTO_MAX_PIXELS'
  >;
  now: () => Date;
  log: FastifyBaseLogger;
  mail: MailProvider;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  payments: Pick<
    PaymentsService,
    | 'findByTxid'
    | 'openDrafts'
    | 'returnPaid'
    | 'sendRefund'
    | 'chargeById'
    | 'refundOf'
    | 'refundsOf'
    | 'refundPart'
    | 'paidAndRefunded'
    | 'endOpenFor'
    | 'recordFree'
  >;
  events: Pick<
    EventsService & { waves: EventWavesService },
    | 'waves'
    | 'findEventRow'
    | 'findCategories'
    | 'currentPrices'
    | 'checkEligibility'
    | 'checkOpeningGate'
    | 'findKitSizes'
    | 'reserveKit'
    | 'reservePlaces'
    | 'priceRules'
    | 'releasePlaces'
    | 'releaseOnePlace'
    | 'releaseOneKit'
    | 'moveReservations'
    | 'movePlace'
    | 'heldPlaces'
  >;
  users: Pick<UsersService, 'findContact'>;
  coupons: Pick<CouponsService, 'quote' | 'hold' | 'release' | 'confirm' | 'returnUse'>;
  /**
   * How the event opens (the opening module's `status`, read from its memory): 'sorteio' makes the
   * lottery's rule hold on changes after the sale too (docs/decisions/0056). Absent: no opening.
   */
  opening?: { modeOf(eventId: number): 'fila' | 'sorteio' | null };
}

/** What a registration charge pays for, as the server priced it (stored in charges.draft). */
export interface RegistrationDraft extends Participant {
  items: Array<{
    categoryId: number;
    priceCents: number;
    lotName?: string | null;
    /** The price rule that priced this race (docs/decisions/0068); its cap holds the place. */
    priceRuleId?: number | null;
    /** The team's quota the place is taken from (docs/decisions/0076), passing the opening's turn. */
    teamQuotaId?: number;
  }>;
  totalCents: number;
  /** The price rule the runner chose and the proof they sent for it (docs/decisions/0068). */
  priceRule?: {
    id: number;
    name: string;
    proof: string | null;
    reviewHours: number;
    /** A PCD document's consent (PCD_PROOF_CONSENT's version), given with the draft. */
    consent?: string;
  };
  /** The kit size held for the charge and its name; absent when the kit has no shirt sizes. */
  kitSizeId?: number;
  kitSize?: string;
  senior?: boolean;
  /** The termo version and the moment the person accepted it (when the charge was created). */
  termsAcceptedAt?: string;
  /** The consent texts' versions shown when the person ticked them (LGPD art. 8 and 11). */
  consentVersions?: { pcd?: string; whatsapp?: string };
  /** The discount coupon priced for it; `totalCents` is already net of it. */
  coupon?: AppliedCoupon;
  /** The team its `equipe_codigo` named, found by the server (docs/decisions/0067); its name wins over `equipe`. */
  team?: JoinedTeam;
  /** The team price's tier when priced (docs/decisions/0074) and the lots' full prices it counts from. */
  teamTier?: { percent: number; baseCents: number };
  /** The registration whose referral link the runner came by, checked by the server (docs/decisions/0086). */
  referredBy?: number;
  /**
   * The team's prepaid place this registration claims (docs/decisions/0073): the team paid for it, all of
   * it or a share, the runner paying the rest (0079).
   */
  teamPlace?: { batchId: number };
  /**
   * A charge that pays for a transfer to this person (docs/decisions/0041): it creates no registration,
   * the registration `registrationId` takes the new holder. `items` is empty: no place is held.
   */
  transfer?: { id: number; registrationId: number; feeCents: number; differenceCents: number };
  /**
   * A charge that pays the difference to the lot's price of registration `registrationId` after its
   * special price's proof was refused (docs/decisions/0068): no place is held, `items` is empty.
   */
  ruleDifference?: {
    registrationId: number;
    differenceCents: number;
    by: 'comprador' | 'participante';
  };
  /** A charge that pays for a change of distance of registration `registrationId` (docs/decisions/0041). */
  change?: {
    registrationId: number;
    from: number;
    to: number;
    feeCents: number;
    differenceCents: number;
    by?: 'comprador' | 'participante';
    /** A list of changes paid by one charge (registration-change-list.ts); `from`/`to` its first distance. */
    list?: ChangeListDraft;
  };
}

/** The list a charge pays for, in its draft's `change.list` (docs/decisions/0056, later). */
export interface ChangeListDraft {
  operations: Extract<RegistrationOperationWire, { tipo: 'distancia' | 'camiseta' }>[];
  /** The registration's categories and shirt when the charge was made: the list applies to them only. */
  categoryIds: number[];
  kitSize: string | null;
  /** The new categories' prices when the charge was made (what the charge paid for). */
  prices: { categoryId: number; priceCents: number; lotName: string | null }[];
}

/** A participant of a cart, priced: the stored draft and the event's name (for descriptions). */
export interface CartParticipant {
  draft: RegistrationDraft;
  eventName: string;
}

/** What cancelling a registration did, for the caller's audit line and its refund after commit. */
export interface RegistrationCancellation {
  before: repo.RegistrationRow;
  /** Every registration the charge paid for, now cancelled (on the direct path, just this one). */
  cancelled: repo.RegistrationRow[];
  /**
   * What goes back, one row per charge that paid for the registration (its own, and the charges of
   * transfers and changes of distance, docs/decisions/0047); empty for a free registration or when the
   * rules keep everything (docs/decisions/0028).
   */
  refunds: RefundRow[];
}

/** The registration's signed kit-pickup QR code (docs/decisions/0026). */
export const checkinQr = (deps: Pick<RegistrationsServiceDeps, 'env'>, row: repo.RegistrationRow) =>
  checkinTicketQr(deps.env.CHECKIN_TOKEN_SECRET, {
    registrationId: row.id,
    eventId: row.eventId,
    nonce: row.checkinNonce,
  });
