import { randomBytes } from 'node:crypto';
import type { CardBrand } from '@passada/core/card';
import { isValidCpfOrCnpj } from '@passada/core/documents';
import type { InstallmentOption } from '@passada/core/installments';
import { formatBRL } from '@passada/core/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { chargePurposes } from '../../db/schema/payments.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import {
  type BillingAddress,
  PaymentProviderError,
  type PaymentsProvider,
} from '../../providers/payments/index.ts';
import type { ChargeRow } from './payments.repository.ts';
import * as repo from './payments.repository.ts';

export type { ChargeRow };
export type ChargePurpose = (typeof chargePurposes)[number];

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
    input: { user: AuthUser; draft: unknown },
  ): Promise<{ amountCents: number; description: string; draft: Draft; billingAddress?: BillingAddress }>;
  /** Holds stock/places for the charge in the same transaction as the charge insert; throws 409 when unavailable. */
  reserve(tx: Tx, chargeId: number, draft: Draft): Promise<void>;
  /** Gives held units back when the charge is refused or expires. */
  release(tx: Tx, chargeId: number, draft: Draft): Promise<void>;
  /** Creates the order/registration; called exactly once per confirmed charge, inside the confirming tx. */
  fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }>;
  /** The order/registration a confirmed charge created (its table has a UNIQUE charge_id). */
  fulfilledBy(tx: Tx | Db, chargeId: number): Promise<{ id: number } | null>;
}

export interface PaymentsServiceDeps {
  db: Db;
  env: Pick<Env, 'PIX_EXPIRATION_SECONDS'>;
  provider: PaymentsProvider;
  now: () => Date;
  log: FastifyBaseLogger;
}

export interface ChargeStatus {
  status: ChargeRow['status'];
  fulfilledId?: number;
  purpose: ChargePurpose;
}

export interface PixCreated {
  txid: string;
  pixCopiaECola: string;
  qrCodeDataUri: string;
  amountCents: number;
  expiresAt: Date;
}

export interface CardPayInput {
  paymentToken: string;
  installments: number;
  claimedTotalCents: number;
  customer: { name: string; cpf: string; email: string; phone: string };
  productName?: string;
  purpose: ChargePurpose;
  draft: unknown;
}

export interface CardPaid {
  status: string;
  chargeId: string;
  installments: number;
  installmentValueCents: number;
  totalCents: number;
  fulfilledId?: number;
  purpose: ChargePurpose;
}

/** A card charge waits this long for the provider's answer before the sweep gives its units back. */
const CARD_PENDING_SECONDS = 600;
const SWEEP_BATCH = 100;

/**
 * Charges: creation bound to a purpose and a server-computed amount, one confirmation path,
 * expiry, and card payment (docs/architecture.md §5).
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const handlers = new Map<ChargePurpose, ChargePurposeHandler>();
  let sweepTimer: NodeJS.Timeout | undefined;

  function registerPurpose<Draft>(purpose: ChargePurpose, handler: ChargePurposeHandler<Draft>): void {
    handlers.set(purpose, handler as ChargePurposeHandler);
  }

  function handlerFor(purpose: ChargePurpose): ChargePurposeHandler {
    const h = handlers.get(purpose);
    if (!h) throw new HttpError(503, 'Pagamento indisponível para esta finalidade.', 'purpose_unavailable');
    return h;
  }

  /** Prices the draft and refuses when the browser's total disagrees (never charge the browser's number). */
  async function prepare(
    tx: Tx,
    purpose: ChargePurpose,
    user: AuthUser,
    draft: unknown,
    claimedCents: number,
  ) {
    const prepared = await handlerFor(purpose).prepare(tx, { user, draft });
    if (!Number.isInteger(prepared.amountCents) || prepared.amountCents <= 0)
      throw new Error(`purpose ${purpose} priced a draft at ${prepared.amountCents}`);
    if (prepared.amountCents !== claimedCents) {
      throw new HttpError(
        409,
        `O total mudou: o valor correto é ${formatBRL(prepared.amountCents)}. Revise o pedido e tente novamente.`,
        'total_divergente',
        undefined,
        { total_correto: prepared.amountCents / 100 },
      );
    }
    return prepared;
  }

  async function createPix(input: {
    user: AuthUser;
    purpose: ChargePurpose;
    draft: unknown;
    claimedTotalCents: number;
    description?: string;
  }): Promise<PixCreated> {
    await expireDue();
    const { db, env, provider, now, log } = deps;
    const created = now();
    const expiresAt = new Date(created.getTime() + env.PIX_EXPIRATION_SECONDS * 1000);
    // 32 hex characters: 128 random bits, inside the API Pix txid rule (26–35 alphanumerics).
    const txid = randomBytes(16).toString('hex');
    const result = await db.transaction(async (tx) => {
      const prepared = await prepare(tx, input.purpose, input.user, input.draft, input.claimedTotalCents);
      const charge = await repo.insertCharge(tx, {
        txid,
        method: 'pix',
        provider: provider.name,
        purpose: input.purpose,
        userId: input.user.id,
        amountCents: prepared.amountCents,
        status: 'ATIVA',
        draft: prepared.draft,
        expiresAt,
        createdAt: created,
      });
      await handlerFor(input.purpose).reserve(tx, charge.id, prepared.draft);
      // Inside the transaction: if the provider fails, nothing stays reserved for a charge nobody can pay.
      const pix = await provider
        .createPix({
          txid,
          amountCents: prepared.amountCents,
          expiresInSeconds: env.PIX_EXPIRATION_SECONDS,
          createdAt: created,
          description: (input.description || prepared.description).slice(0, 140),
        })
        .catch((err: unknown) => {
          throw providerFailure(err, 'Não foi possível gerar o Pix. Tente novamente em instantes.');
        });
      await repo.setPixCode(tx, charge.id, pix.pixCopiaECola);
      return { charge, pix };
    });
    log.info(
      { txid, chargeId: result.charge.id, amountCents: result.charge.amountCents, purpose: input.purpose },
      'pix charge created',
    );
    return {
      txid,
      pixCopiaECola: result.pix.pixCopiaECola,
      qrCodeDataUri: result.pix.qrCodeDataUri,
      amountCents: result.charge.amountCents,
      expiresAt,
    };
  }

  function providerFailure(err: unknown, message: string): HttpError {
    const status = err instanceof PaymentProviderError ? err.status : 0;
    deps.log.error(
      {
        providerStatus: status,
        providerCode: err instanceof PaymentProviderError ? err.providerCode : undefined,
      },
      'payment provider failed',
    );
    return new HttpError(502, message, 'payment_provider_error');
  }

  /**
   * The single confirmation path (webhook, simulator, status polling). Idempotent: only the caller
   * whose conditional update changed the row fulfils, inside the same transaction.
   */
  async function confirmPix(
    txid: string,
    endToEndId: string,
  ): Promise<{ changed: boolean; fulfilledId?: number }> {
    const { db, now, log } = deps;
    const outcome = await db.transaction(async (tx) => {
      const charge = await repo.markPixPaid(tx, txid, endToEndId, now());
      if (!charge) return { changed: false as const };
      const fulfilled = await handlerFor(charge.purpose).fulfil(tx, charge);
      return { changed: true as const, fulfilledId: fulfilled.id, charge };
    });
    if (outcome.changed)
      log.info(
        { txid, chargeId: outcome.charge.id, fulfilledId: outcome.fulfilledId },
        'pix charge confirmed',
      );
    return outcome.changed ? { changed: true, fulfilledId: outcome.fulfilledId } : { changed: false };
  }

  /**
   * Asks the provider (never the browser or the notification body) whether a charge was paid, and
   * confirms it when it was, for exactly its amount.
   */
  async function confirmFromProvider(txid: string): Promise<void> {
    const { db, provider, log } = deps;
    const charge = await repo.findChargeByTxid(db, txid);
    if (charge?.method !== 'pix' || charge.status !== 'ATIVA') return;
    if (await expireIfDue(charge)) return;
    const state = await provider.getPix(txid);
    if (state.status !== 'CONCLUIDA' || !state.endToEndId) return;
    if (state.amountCents !== charge.amountCents) {
      log.error(
        { txid, expected: charge.amountCents, paid: state.amountCents },
        'pix paid with a different amount',
      );
      return;
    }
    await confirmPix(txid, state.endToEndId);
  }

  /**
   * Handles a webhook delivery: each txid is checked with the provider; unknown ones are ignored. A
   * failing entry does not stop the others, but is reported so the provider delivers again.
   */
  async function receivePixNotifications(txids: string[]): Promise<void> {
    let firstError: unknown = null;
    for (const txid of new Set(txids)) {
      try {
        await confirmFromProvider(txid);
      } catch (err) {
        deps.log.error(
          { txid, err: err instanceof Error ? err.message : String(err) },
          'pix notification failed',
        );
        firstError ??= err;
      }
    }
    if (firstError) throw firstError;
  }

  /** A charge by its txid (Pix) or card charge id, for the module that owns what it pays for. */
  function findByTxid(txid: string): Promise<ChargeRow | null> {
    return repo.findChargeByTxid(deps.db, txid);
  }

  /** What the purpose's open charges (not paid, not expired) carry, matched on one draft field. */
  function openDrafts(
    tx: Tx,
    purpose: ChargePurpose,
    match: { field: string; value: string },
  ): Promise<unknown[]> {
    return repo.findOpenDrafts(tx, purpose, match, deps.now());
  }

  /** The charge once any transaction confirming it has ended (that transaction holds its row lock). */
  function settled(chargeId: number): Promise<ChargeRow | null> {
    return deps.db.transaction((tx) => repo.lockCharge(tx, chargeId));
  }

  /** Status of a charge for its owner (another user's charge does not exist for them). */
  async function status(user: AuthUser, txid: string): Promise<ChargeStatus> {
    const { db } = deps;
    let charge = await repo.findChargeByTxid(db, txid);
    if (!charge || charge.userId !== user.id) throw notFound('Cobrança não encontrada.');
    if (charge.status === 'ATIVA' && charge.method === 'pix') {
      if (!(await expireIfDue(charge))) {
        // Polling the provider covers a webhook that never arrived.
        await confirmFromProvider(txid).catch((err: unknown) => {
          deps.log.warn(
            { txid, err: err instanceof Error ? err.message : String(err) },
            'pix status poll failed',
          );
        });
      }
      charge = (await repo.findChargeByTxid(db, txid))!;
    }
    return describe(charge);
  }

  /** A charge as the status answers show it, with what it paid for once paid. */
  async function describe(charge: ChargeRow): Promise<ChargeStatus> {
    const fulfilled =
      charge.status === 'CONCLUIDA' ? await handlerFor(charge.purpose).fulfilledBy(deps.db, charge.id) : null;
    return {
      status: charge.status,
      purpose: charge.purpose,
      ...(fulfilled ? { fulfilledId: fulfilled.id } : {}),
    };
  }

  /** Simulated mode only: the payer pays at the bank, then the same confirmation as a webhook runs. */
  async function simulatePixPayment(txid: string): Promise<ChargeStatus & { txid: string }> {
    const { db, provider, now } = deps;
    if (!provider.simulator) throw notFound();
    const charge = await repo.findChargeByTxid(db, txid);
    if (charge?.method !== 'pix') throw notFound('Cobrança não encontrada.');
    await expireIfDue(charge);
    const paid = provider.simulator.payPix(txid, now());
    const current = (await repo.findChargeByTxid(db, txid))!;
    if (!paid || (current.status !== 'ATIVA' && current.status !== 'CONCLUIDA'))
      throw conflict('Esta cobrança expirou e não pode mais ser paga.', 'cobranca_expirada');
    await receivePixNotifications([txid]);
    return { txid, ...(await describe((await repo.findChargeByTxid(db, txid))!)) };
  }

  /** True when the charge was (now or already) past its deadline; gives its units back once. */
  async function expireIfDue(charge: ChargeRow): Promise<boolean> {
    if (charge.expiresAt.getTime() > deps.now().getTime()) return false;
    await expireOne(charge.id);
    return true;
  }

  async function expireOne(id: number): Promise<void> {
    const { db, now, log } = deps;
    const expired = await db.transaction(async (tx) => {
      const row = await repo.markExpired(tx, id, now());
      if (row) await handlerFor(row.purpose).release(tx, row.id, row.draft);
      return row;
    });
    if (expired) log.info({ txid: expired.txid, chargeId: expired.id }, 'charge expired');
  }

  /** Expires every overdue charge (run before creating one, and periodically). */
  async function expireDue(): Promise<number> {
    const ids = await repo.findDueIds(deps.db, deps.now(), SWEEP_BATCH);
    for (const id of ids) await expireOne(id);
    return ids.length;
  }

  /** Periodic sweep; unref'd so it never keeps the process alive. */
  function start(intervalMs = 60_000): void {
    sweepTimer ??= setInterval(() => {
      expireDue().catch((err: unknown) =>
        deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'charge sweep failed'),
      );
    }, intervalMs);
    sweepTimer.unref();
  }

  function stop(): void {
    if (sweepTimer) clearInterval(sweepTimer);
    sweepTimer = undefined;
  }

  async function installments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]> {
    return deps.provider.installments(brand, totalCents).catch((err: unknown) => {
      throw providerFailure(err, 'Não foi possível consultar as parcelas. Tente novamente em instantes.');
    });
  }

  /**
   * Card: hold the units with a pending charge, ask the provider, then settle in one transaction:
   * approved → CONCLUIDA + fulfil; anything else → RECUSADA + release.
   */
  async function chargeCard(user: AuthUser, input: CardPayInput): Promise<CardPaid> {
    const { db, provider, now, log } = deps;
    if (!isValidCpfOrCnpj(input.customer.cpf))
      throw badRequest('CPF do titular inválido.', 'validation_error', { cpf: 'CPF inválido.' });
    await expireDue();
    const created = now();
    const provisional = `cartao${randomBytes(16).toString('hex')}`;
    const pending = await db.transaction(async (tx) => {
      const prepared = await prepare(tx, input.purpose, user, input.draft, input.claimedTotalCents);
      const charge = await repo.insertCharge(tx, {
        txid: provisional,
        method: 'cartao',
        provider: provider.name,
        purpose: input.purpose,
        userId: user.id,
        amountCents: prepared.amountCents,
        status: 'ATIVA',
        draft: prepared.draft,
        installments: input.installments,
        expiresAt: new Date(created.getTime() + CARD_PENDING_SECONDS * 1000),
        createdAt: created,
      });
      await handlerFor(input.purpose).reserve(tx, charge.id, prepared.draft);
      return { charge, prepared };
    });

    let result: Awaited<ReturnType<PaymentsProvider['chargeCard']>> | null = null;
    let failure: unknown = null;
    try {
      result = await provider.chargeCard({
        paymentToken: input.paymentToken,
        installments: input.installments,
        amountCents: pending.charge.amountCents,
        itemName: input.productName || pending.prepared.description,
        customer: input.customer,
        ...(pending.prepared.billingAddress ? { billingAddress: pending.prepared.billingAddress } : {}),
      });
    } catch (err) {
      failure = err;
    }
    const approved = result?.status === 'approved';
    const settled = await db.transaction(async (tx) => {
      const row = await repo.settleCardCharge(tx, pending.charge.id, {
        status: approved ? 'CONCLUIDA' : 'RECUSADA',
        txid: result?.chargeId ? `cartao-${provider.name}-${result.chargeId}` : provisional,
        amountCents: approved && result ? result.totalCents : pending.charge.amountCents,
        installments: result?.installments ?? input.installments,
        now: now(),
      });
      if (!row) return null;
      const handler = handlerFor(row.purpose);
      if (approved) return { row, fulfilled: await handler.fulfil(tx, row) };
      await handler.release(tx, row.id, row.draft);
      return { row, fulfilled: null };
    });
    log.info(
      {
        chargeId: pending.charge.id,
        outcome: approved ? 'approved' : (result?.status ?? 'error'),
        purpose: input.purpose,
      },
      'card charge settled',
    );
    if (failure) {
      if (failure instanceof PaymentProviderError && failure.status >= 400 && failure.status < 500)
        throw new HttpError(400, failure.message, 'pagamento_recusado');
      throw providerFailure(failure, 'Não foi possível processar o pagamento com cartão. Tente novamente.');
    }
    if (!settled || !result) throw conflict('Esta cobrança já foi encerrada.', 'cobranca_encerrada');
    return {
      status: result.status,
      chargeId: settled.row.txid,
      installments: result.installments,
      installmentValueCents: result.installmentValueCents,
      totalCents: settled.row.amountCents,
      purpose: input.purpose,
      ...(settled.fulfilled ? { fulfilledId: settled.fulfilled.id } : {}),
    };
  }

  return {
    registerPurpose,
    createPix,
    confirmPix,
    confirmFromProvider,
    receivePixNotifications,
    findByTxid,
    openDrafts,
    settled,
    status,
    simulatePixPayment,
    expireDue,
    start,
    stop,
    installments,
    chargeCard,
  };
}

/** Charges and their confirmation; other modules register what a charge can pay for. */
export type PaymentsService = ReturnType<typeof createPaymentsService>;
