import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { chargePurposes } from '../../db/schema/payments.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { HttpError } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import {
  type BillingAddress,
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
  redactProviderPayload,
} from '../../providers/payments/index.ts';
import type { WhatsAppProvider } from '../../providers/whatsapp/index.ts';
import type { ChargeRow, PaymentEventSource } from './payments.repository.ts';
import * as repo from './payments.repository.ts';

export type ChargePurpose = (typeof chargePurposes)[number];

/**
 * Thrown by a purpose's `fulfil` when what the charge paid for can no longer be given (the place
 * went to someone else): the payment is then returned, never kept for nothing.
 */
export class CannotFulfil extends Error {}

/**
 * What another module (orders, event registrations) plugs in so a charge can pay for its thing.
 * Payments owns the charge; the module owns the draft, the held units and what a paid charge creates.
 */
export interface ChargePurposeHandler<Draft = unknown> {
  /**
   * Validates the browser's draft and prices it from the server's own data; throws HttpError when
   * invalid. The service compares the result with the total the browser claimed.
   */
  prepare(
    tx: Tx,
    input: {
      user: AuthUser;
      draft: unknown;
      /**
       * The card holder's CPF as sent to the provider (11 digits), never the browser's draft; absent for
       * Pix, for a CNPJ holder and for price previews.
       */
      payerCpf?: string;
    },
  ): Promise<{ amountCents: number; description: string; draft: Draft; billingAddress?: BillingAddress }>;
  /** Holds stock/places for the charge in the same transaction as the charge insert; throws 409 when unavailable. */
  reserve(tx: Tx, chargeId: number, draft: Draft): Promise<void>;
  /**
   * A charge paid after it ended (its units given back, `ENDED_UNPAID`): the rules a new sale counts that
   * others may have used up meanwhile (an opening's limits per CPF and per buyer) are asked again, in the
   * confirming transaction, before its units are held again. Throws CannotFulfil with the reason the
   * payer reads in the refund's e-mail. Absent: nothing to ask again.
   */
  recheck?(tx: Tx, charge: ChargeRow): Promise<void>;
  /** Gives held units back when the charge is refused or expires. */
  release(tx: Tx, chargeId: number, draft: Draft): Promise<void>;
  /** Creates the order/registration once per paid charge, inside the confirming tx; may throw CannotFulfil. */
  fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }>;
  /**
   * Whether `fulfil` may refuse (CannotFulfil, 409) after its first write: then the confirming
   * transaction runs it inside a savepoint, so a refusal leaves nothing behind. False when it refuses
   * only before writing anything (a cart of products alone), which saves the savepoint's two round
   * trips on the paying path. Absent: it may.
   */
  refusesAfterWriting?(draft: Draft): boolean;
  /** The order/registration a confirmed charge created (its table has a UNIQUE charge_id). */
  fulfilledBy(tx: Tx | Db, chargeId: number): Promise<{ id: number } | null>;
  /**
   * Who paid, for the e-mail telling them their money was returned, and the page (a path) where they
   * follow it.
   */
  payer?(draft: Draft): { name: string; email: string; page: string } | undefined;
  /**
   * Who opted in to WhatsApp for this charge (docs/decisions/0045): their first name, phone and what the
   * charge pays for ("o pedido", "a inscrição em …") and when they ticked it (an opt-out after that
   * moment blocks the message); undefined without the opt-in.
   */
  whatsappContact?(
    draft: Draft,
  ): { name: string; phone: string; what: string; consentAt?: Date | null } | undefined;
  /**
   * The draft without personal data (names, e-mail, CPF, birth date, phone, address), keeping what
   * accounting and reconciliation need (items, amounts, ids, sizes). Applied to a charge that ended
   * unpaid, and to every charge of a deleted account (LGPD); such a charge can then only be refunded.
   */
  withoutPersonalData?(draft: Draft): unknown;
}

export interface PaymentsServiceDeps {
  db: Db;
  env: Pick<
    Env,
    'PIX_EXPIRATION_SECONDS' | 'EFI_TIMEOUT_MS' | 'PAYMENTS_MAX_OPEN_CHARGES' | 'STORE_NAME' | 'publicUrl'
  >;
  provider: PaymentsProvider;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Pick<Jobs<AppJobCatalog>, 'send'>;
  /** WhatsApp messages to payers who opted in (the Pix code); absent, none are sent. */
  whatsapp?: WhatsAppProvider;
  mail: MailProvider;
}

/** How long a card charge holds its units before reconciliation looks at it for being stuck. */
export const CARD_REVIEW_SECONDS = 600;

export const OPEN = new Set<ChargeRow['status']>(repo.OPEN_STATUSES);
export const HELD_RELEASED = new Set<ChargeRow['status']>(repo.ENDED_UNPAID);

/**
 * An unpaid charge nobody can pay any more: a refused card (Efí's `unpaid`/`canceled` are final) or a
 * Pix the provider never created. Its draft's personal data is cleared as it ends; other ended charges
 * (expired or replaced Pix, a card that failed) only once reconciliation stops watching them for a late
 * payment (`PERSONAL_DATA_GRACE_MS`).
 */
export const endsForGood = (row: Pick<ChargeRow, 'status' | 'method'>) =>
  row.status === 'RECUSADA' || (row.status === 'FALHOU' && row.method === 'pix');

/** How long an ended charge keeps its draft's personal data for a late payment to be fulfilled. */
export const PERSONAL_DATA_GRACE_MS = 24 * 3600_000;

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The provider left no doubt the charge does not exist there. */
export const isNotFound = (err: unknown) =>
  err instanceof PaymentProviderError && !(err instanceof PaymentProviderTimeout) && err.status === 404;

/** What a failed provider call is recorded as (the message is ours or the provider's, never personal data). */
export function errorInfo(err: unknown) {
  return err instanceof PaymentProviderError
    ? { error: err.message, status: err.status, code: err.providerCode ?? null }
    : { error: err instanceof Error ? err.name : 'erro' };
}

/** A unique index refused the write (the PostgreSQL code, through any wrapping the driver adds). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * What every part of the payments service shares: its dependencies, the purposes other modules
 * registered, the payment event log, and ending a charge that gives its units back.
 */
export function createPaymentsContext(deps: PaymentsServiceDeps) {
  const handlers = new Map<ChargePurpose, ChargePurposeHandler>();

  function registerPurpose<Draft>(purpose: ChargePurpose, handler: ChargePurposeHandler<Draft>): void {
    handlers.set(purpose, handler as ChargePurposeHandler);
  }

  function handlerFor(purpose: ChargePurpose): ChargePurposeHandler {
    const h = handlers.get(purpose);
    if (!h) throw new HttpError(503, 'Pagamento indisponível para esta finalidade.', 'purpose_unavailable');
    return h;
  }

  async function logEvent(
    conn: Db | Tx,
    chargeId: number,
    source: PaymentEventSource,
    kind: string,
    raw: unknown,
  ): Promise<void> {
    await repo.appendEvent(conn, {
      chargeId,
      source,
      kind,
      raw: redactProviderPayload(raw),
      at: deps.now(),
    });
  }

  function providerFailure(err: unknown, message: string): HttpError {
    deps.log.error(
      {
        providerStatus: err instanceof PaymentProviderError ? err.status : 0,
        providerCode: err instanceof PaymentProviderError ? err.providerCode : undefined,
      },
      'payment provider failed',
    );
    return new HttpError(502, message, 'payment_provider_error');
  }

  /** Gives back what a charge held and marks it ended (no provider call; the caller made it). */
  async function endCharge(
    id: number,
    values: { status: ChargeRow['status']; reason?: string; attention?: string },
    event?: { source: PaymentEventSource; kind: string; raw: unknown },
  ): Promise<ChargeRow | null> {
    return deps.db.transaction(async (tx) => {
      const row = await repo.lockCharge(tx, id);
      if (!row || !OPEN.has(row.status)) return null;
      if (event) await logEvent(tx, id, event.source, event.kind, event.raw);
      const ended = await repo.updateCharge(tx, id, {
        status: values.status,
        ...(values.reason ? { reason: values.reason } : {}),
        ...(values.attention ? { attention: values.attention } : {}),
        updatedAt: deps.now(),
      });
      await handlerFor(row.purpose).release(tx, id, row.draft);
      if (endsForGood(ended)) await clearPersonalData(tx, ended);
      return ended;
    });
  }

  /**
   * Clears the personal data of a charge's draft, once, as its purpose defines it (docs/decisions/
   * 0019-charge-draft-personal-data.md). From then on a payment for it is refunded, never fulfilled.
   */
  async function clearPersonalData(conn: Db | Tx, row: ChargeRow): Promise<void> {
    const strip = handlers.get(row.purpose)?.withoutPersonalData;
    if (row.personalDataClearedAt || !strip) return;
    await repo.updateCharge(conn, row.id, { draft: strip(row.draft), personalDataClearedAt: deps.now() });
  }

  /**
   * Runs a step that may refuse (CannotFulfil, 409): null when it did, with its writes undone by a
   * savepoint. `savepoint: false` for a step that refuses only before its first write.
   */
  async function attempt<T>(
    tx: Tx,
    step: (sp: Tx) => Promise<T>,
    savepoint = true,
    refusal?: { reason?: string },
  ): Promise<{ value: T } | null> {
    try {
      if (!savepoint) return { value: await step(tx) };
      return await tx.transaction(async (sp) => ({ value: await step(sp) }));
    } catch (err) {
      if (err instanceof CannotFulfil || (err instanceof HttpError && err.statusCode === 409)) {
        // The step's own words, for the refund's reason (a CannotFulfil says why it could not complete).
        if (refusal && err instanceof CannotFulfil && err.message) refusal.reason = err.message;
        return null;
      }
      throw err;
    }
  }

  return {
    deps,
    registerPurpose,
    handlerFor,
    logEvent,
    providerFailure,
    endCharge,
    attempt,
    clearPersonalData,
  };
}

export type PaymentsContext = ReturnType<typeof createPaymentsContext>;
