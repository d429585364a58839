import { randomBytes } from 'node:crypto';
import type { CardBrand } from '@passada/core/card';
import type { PaymentListItem } from '@passada/core/contracts/payments';
import { isValidCpfOrCnpj } from '@passada/core/documents';
import type { InstallmentOption } from '@passada/core/installments';
import { formatBRL } from '@passada/core/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { chargePurposes } from '../../db/schema/payments.ts';
import type { AppJobCatalog } from '../../jobs/job-catalog.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/mail.provider.ts';
import {
  type BillingAddress,
  type CardChargeResult,
  type CardStatus,
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
  type PixState,
  redactProviderPayload,
} from '../../providers/payments/index.ts';
import { cardHolderBirthProblem, refundNoticeMail } from './payment-rules.ts';
import type { ChargeRow, PaymentEventSource, RefundRow } from './payments.repository.ts';
import * as repo from './payments.repository.ts';

export type { ChargeRow, RefundRow };
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
    input: { user: AuthUser; draft: unknown },
  ): Promise<{ amountCents: number; description: string; draft: Draft; billingAddress?: BillingAddress }>;
  /** Holds stock/places for the charge in the same transaction as the charge insert; throws 409 when unavailable. */
  reserve(tx: Tx, chargeId: number, draft: Draft): Promise<void>;
  /** Gives held units back when the charge is refused or expires. */
  release(tx: Tx, chargeId: number, draft: Draft): Promise<void>;
  /** Creates the order/registration once per paid charge, inside the confirming tx; may throw CannotFulfil. */
  fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }>;
  /** The order/registration a confirmed charge created (its table has a UNIQUE charge_id). */
  fulfilledBy(tx: Tx | Db, chargeId: number): Promise<{ id: number } | null>;
  /**
   * Who paid, for the e-mail telling them their money was returned, and the page (a path) where they
   * follow it.
   */
  payer?(draft: Draft): { name: string; email: string; page: string };
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
  mail: MailProvider;
}

export interface ChargeStatus {
  status: ChargeRow['status'];
  fulfilledId?: number;
  purpose: ChargePurpose;
  reason?: string;
  expiresAt?: Date;
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
  idempotencyKey: string;
  customer: { name: string; cpf: string; email: string; phone: string; birth: string };
  productName?: string;
  purpose: ChargePurpose;
  draft: unknown;
}

export interface CardOutcome {
  txid: string;
  /** 'paid' or 'em_analise'. */
  status: 'paid' | 'em_analise';
  chargeId: string;
  installments: number;
  installmentValueCents: number;
  totalCents: number;
  fulfilledId?: number;
  purpose: ChargePurpose;
}

/** A card answer, from the charge call, a read or a notification. */
interface CardNews {
  status: CardStatus;
  providerChargeId?: string;
  reason?: string;
  installments?: number;
  installmentValueCents?: number;
  totalCents?: number;
  raw: unknown;
}

/** How long a card charge holds its units before reconciliation looks at it for being stuck. */
const CARD_REVIEW_SECONDS = 600;
/** A card charge whose outcome stayed unknown this long (no provider id, no notification) is given up. */
const CARD_UNKNOWN_GIVE_UP_MS = 24 * 3600_000;
const RECONCILE_BATCH = 200;
const NOTEWORTHY_DAYS = 30;

const OPEN = new Set<ChargeRow['status']>(repo.OPEN_STATUSES);
const HELD_RELEASED = new Set<ChargeRow['status']>([
  'EXPIRADA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
  'RECUSADA',
  'FALHOU',
]);

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The provider left no doubt the charge does not exist there. */
const isNotFound = (err: unknown) =>
  err instanceof PaymentProviderError && !(err instanceof PaymentProviderTimeout) && err.status === 404;

/** Our own id for a card charge: alphanumeric like a txid, so one status route serves both. */
const newCardTxid = () => `cartao${randomBytes(12).toString('hex')}`;

/**
 * Charges (docs/architecture.md §5): created bound to a purpose and a server-computed amount, with no
 * provider call inside a transaction; settled by one path (webhook, polling, reconciliation, card
 * notifications) that always asks the provider; a payment that can no longer be honoured is returned.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const handlers = new Map<ChargePurpose, ChargePurposeHandler>();
  let webhookState: 'ok' | 'erro' | 'pendente' | 'desativado' = 'desativado';

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

  /**
   * The account's earlier open Pix for this purpose is removed at the provider first, so a shopper's
   * own unpaid charge never holds the units they now want. A removal that reveals a payment settles it.
   */
  async function withdrawEarlierPix(user: AuthUser, purpose: ChargePurpose): Promise<number[]> {
    const earlier = await repo.findOpenPix(deps.db, user.id, purpose);
    const ids: number[] = [];
    for (const charge of earlier) {
      let state: PixState | null = null;
      try {
        state = await deps.provider.cancelPix(charge.txid);
      } catch (err) {
        if (!isNotFound(err))
          throw providerFailure(
            err,
            'Não foi possível cancelar o Pix anterior. Tente novamente em instantes.',
          );
      }
      if (state) await logEvent(deps.db, charge.id, 'create', `cancel:${state.status}`, state.raw);
      if (state?.status === 'CONCLUIDA') await settlePaidPix(charge.id, state);
      else ids.push(charge.id);
    }
    return ids;
  }

  /** Inside the new charge's transaction: the withdrawn charges end and give their units back. */
  async function endWithdrawn(tx: Tx, ids: number[]): Promise<void> {
    for (const id of ids) {
      const row = await repo.lockCharge(tx, id);
      if (row?.status !== 'ATIVA') continue;
      await repo.updateCharge(tx, id, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', updatedAt: deps.now() });
      await handlerFor(row.purpose).release(tx, id, row.draft);
    }
  }

  async function guardOpenCharges(tx: Tx, userId: number): Promise<void> {
    if ((await repo.countOpen(tx, userId)) >= deps.env.PAYMENTS_MAX_OPEN_CHARGES)
      throw new HttpError(
        429,
        'Você tem muitos pagamentos em aberto. Conclua ou aguarde os pagamentos pendentes antes de iniciar outro.',
        'muitos_pagamentos_abertos',
      );
  }

  /** Gives back what a charge held and marks it ended (no provider call; the caller made it). */
  async function endCharge(
    id: number,
    values: { status: ChargeRow['status']; reason?: string },
    event?: { source: PaymentEventSource; kind: string; raw: unknown },
  ): Promise<ChargeRow | null> {
    return deps.db.transaction(async (tx) => {
      const row = await repo.lockCharge(tx, id);
      if (!row || !OPEN.has(row.status)) return null;
      if (event) await logEvent(tx, id, event.source, event.kind, event.raw);
      const ended = await repo.updateCharge(tx, id, {
        status: values.status,
        ...(values.reason ? { reason: values.reason } : {}),
        updatedAt: deps.now(),
      });
      await handlerFor(row.purpose).release(tx, id, row.draft);
      return ended;
    });
  }

  async function createPix(input: {
    user: AuthUser;
    purpose: ChargePurpose;
    draft: unknown;
    claimedTotalCents: number;
    description?: string;
  }): Promise<PixCreated> {
    const { db, env, provider, now, log } = deps;
    const withdrawn = await withdrawEarlierPix(input.user, input.purpose);
    const created = now();
    // 32 hex characters: 128 random bits, inside the API Pix txid rule (26–35 alphanumerics).
    const txid = randomBytes(16).toString('hex');
    // 1. Reserve and commit: from here the charge exists even if the process dies mid-call.
    const { charge, description } = await db.transaction(async (tx) => {
      await endWithdrawn(tx, withdrawn);
      await guardOpenCharges(tx, input.user.id);
      const prepared = await prepare(tx, input.purpose, input.user, input.draft, input.claimedTotalCents);
      const row = await repo.insertCharge(tx, {
        txid,
        method: 'pix',
        provider: provider.name,
        purpose: input.purpose,
        userId: input.user.id,
        amountCents: prepared.amountCents,
        status: 'ATIVA',
        draft: prepared.draft,
        // Provisional: replaced by the provider's own deadline as soon as it answers.
        expiresAt: new Date(created.getTime() + env.PIX_EXPIRATION_SECONDS * 1000),
        createdAt: created,
      });
      await handlerFor(input.purpose).reserve(tx, row.id, prepared.draft);
      return { charge: row, description: (input.description || prepared.description).slice(0, 140) };
    });
    // 2. The provider, with no transaction open.
    let pix: Awaited<ReturnType<PaymentsProvider['createPix']>>;
    try {
      pix = await provider.createPix({
        txid,
        amountCents: charge.amountCents,
        expiresInSeconds: env.PIX_EXPIRATION_SECONDS,
        createdAt: created,
        description,
      });
    } catch (err) {
      // 3b. Compensation: nobody can pay a charge the provider did not create.
      await endCharge(
        charge.id,
        { status: 'FALHOU' },
        { source: 'create', kind: 'error', raw: errorInfo(err) },
      );
      throw providerFailure(err, 'Não foi possível gerar o Pix. Tente novamente em instantes.');
    }
    // 3a. Record the answer; the deadline is the provider's.
    await db.transaction(async (tx) => {
      await repo.updateCharge(tx, charge.id, { pixCopiaECola: pix.pixCopiaECola, expiresAt: pix.expiresAt });
      await logEvent(tx, charge.id, 'create', 'ATIVA', { txid, expiresAt: pix.expiresAt.toISOString() });
    });
    log.info(
      { txid, chargeId: charge.id, amountCents: charge.amountCents, purpose: input.purpose },
      'pix charge created',
    );
    return {
      txid,
      pixCopiaECola: pix.pixCopiaECola,
      qrCodeDataUri: pix.qrCodeDataUri,
      amountCents: charge.amountCents,
      expiresAt: pix.expiresAt,
    };
  }

  /**
   * A Pix the provider says is paid. Units still held → fulfil. Units gone back (expired, removed) →
   * hold them again and fulfil when they are there. Otherwise, or when the purpose cannot fulfil,
   * the money is returned (refund row + e-mail in the same transaction, the provider call after).
   */
  async function settlePaidPix(chargeId: number, state: PixState): Promise<void> {
    const { db, now, log } = deps;
    const outcome = await db.transaction(async (tx) => {
      const row = await repo.lockCharge(tx, chargeId);
      if (!row || row.status === 'CONCLUIDA' || row.status === 'DEVOLVIDA') return null;
      const paid = {
        paidAt: state.paidAt ?? now(),
        endToEndId: state.endToEndId ?? null,
        updatedAt: now(),
      };
      const paidCents = state.paidCents ?? state.amountCents;
      if (paidCents !== row.amountCents) {
        log.error(
          { txid: row.txid, expected: row.amountCents, paid: paidCents },
          'pix paid with a different amount',
        );
        return refundInTx(tx, row, paid, 'O valor pago não corresponde ao valor da cobrança.', paidCents);
      }
      const handler = handlerFor(row.purpose);
      if (HELD_RELEASED.has(row.status)) {
        const held = await attempt(tx, (sp) => handler.reserve(sp, row.id, row.draft));
        if (!held)
          return refundInTx(
            tx,
            row,
            paid,
            'O pagamento chegou depois do prazo e os itens ou vagas reservados não estavam mais disponíveis.',
          );
      }
      const confirmed = await repo.updateCharge(tx, row.id, { status: 'CONCLUIDA', ...paid });
      const fulfilled = await attempt(tx, (sp) => handler.fulfil(sp, confirmed));
      if (!fulfilled) {
        await handler.release(tx, row.id, row.draft);
        return refundInTx(
          tx,
          confirmed,
          paid,
          'A vaga já estava ocupada por outra inscrição paga para este CPF.',
        );
      }
      return { kind: 'fulfilled' as const, row: confirmed, id: fulfilled.value.id };
    });
    if (!outcome) return;
    if (outcome.kind === 'fulfilled') {
      log.info({ txid: outcome.row.txid, chargeId, fulfilledId: outcome.id }, 'pix charge confirmed');
      return;
    }
    log.warn({ txid: outcome.row.txid, chargeId }, 'pix payment returned');
    await sendRefund(outcome.refund);
  }

  /** Runs `step` in a savepoint: null when it refused (409 or CannotFulfil), leaving the tx usable. */
  async function attempt<T>(tx: Tx, step: (sp: Tx) => Promise<T>): Promise<{ value: T } | null> {
    try {
      return await tx.transaction(async (sp) => ({ value: await step(sp) }));
    } catch (err) {
      if (err instanceof CannotFulfil || (err instanceof HttpError && err.statusCode === 409)) return null;
      throw err;
    }
  }

  async function refundInTx(
    tx: Tx,
    row: ChargeRow,
    paid: { paidAt: Date; endToEndId: string | null; updatedAt: Date },
    reason: string,
    amountCents = row.amountCents,
  ) {
    const ended = await repo.updateCharge(tx, row.id, { status: 'DEVOLVIDA', reason, ...paid });
    const refund = await repo.insertRefund(tx, {
      chargeId: row.id,
      refundId: `dev${row.id}${randomBytes(8).toString('hex')}`.slice(0, 35),
      amountCents,
      status: 'PENDENTE',
      reason,
      createdAt: deps.now(),
    });
    await deps.jobs.send('mail.refund-notice', { chargeId: row.id }, { tx });
    return { kind: 'refund' as const, row: ended, refund };
  }

  /**
   * Staff cancel what a paid charge bought (docs/architecture.md §5): inside the caller's transaction
   * the charge becomes DEVOLVIDA with its refund row; the caller runs `sendRefund` after commit, since
   * no provider call happens inside a transaction. The caller tells the payer (its own e-mail).
   */
  async function returnPaid(tx: Tx, chargeId: number, reason: string): Promise<RefundRow> {
    const row = await repo.lockCharge(tx, chargeId);
    if (row?.status !== 'CONCLUIDA')
      throw conflict('Só um pagamento confirmado pode ser devolvido.', 'pagamento_nao_confirmado');
    if (row.method === 'pix' ? !row.endToEndId : !row.providerChargeId)
      throw conflict(
        'O pagamento não tem a identificação da operadora; devolva-o pelo painel da Efí.',
        'pagamento_sem_identificacao',
      );
    await repo.updateCharge(tx, row.id, { status: 'DEVOLVIDA', reason, updatedAt: deps.now() });
    return repo.insertRefund(tx, {
      chargeId: row.id,
      refundId: `dev${row.id}${randomBytes(8).toString('hex')}`.slice(0, 35),
      amountCents: row.amountCents,
      status: 'PENDENTE',
      reason,
      createdAt: deps.now(),
    });
  }

  /**
   * Asks the provider to return the money (Pix by our refund id, card in full); asking again never
   * refunds twice, and reconciliation retries an unanswered one.
   */
  async function sendRefund(refund: RefundRow): Promise<void> {
    const { db, provider, now, log } = deps;
    const charge = await repo.findChargeById(db, refund.chargeId);
    if (!charge) return;
    try {
      let answer: { status: string; raw: unknown };
      if (charge.method === 'cartao') {
        if (!charge.providerChargeId) return;
        answer = await provider.refundCard({
          providerChargeId: charge.providerChargeId,
          amountCents: refund.amountCents,
        });
      } else {
        if (!charge.endToEndId) return;
        answer = await provider.refundPix({
          endToEndId: charge.endToEndId,
          refundId: refund.refundId,
          amountCents: refund.amountCents,
        });
      }
      await db.transaction(async (tx) => {
        // EM_PROCESSAMENTO is Efí's "requested": the money is on its way.
        await repo.setRefundStatus(tx, refund.id, answer.status, now());
        await logEvent(tx, charge.id, 'refund', answer.status, answer.raw);
      });
    } catch (err) {
      await logEvent(db, charge.id, 'refund', 'error', errorInfo(err));
      log.error({ chargeId: charge.id, err: errorText(err) }, 'refund failed; reconciliation retries it');
    }
  }

  /**
   * The one way a charge's state moves on provider news: webhook, status polling, reconciliation.
   * Always asks the provider; never trusts our clock alone or a notification body.
   */
  async function reconcile(chargeId: number, source: PaymentEventSource): Promise<void> {
    const charge = await repo.findChargeById(deps.db, chargeId);
    if (!charge) return;
    if (charge.method === 'pix') await reconcilePix(charge, source);
    else await reconcileCard(charge, source);
  }

  async function reconcilePix(charge: ChargeRow, source: PaymentEventSource): Promise<void> {
    const { provider, now, env } = deps;
    const creating = charge.status === 'ATIVA' && !charge.pixCopiaECola;
    // A creation still under way is left alone; one older than any provider call crashed mid-way.
    if (creating && now().getTime() - charge.createdAt.getTime() < 2 * env.EFI_TIMEOUT_MS + 30_000) return;
    let state: PixState;
    try {
      state = await provider.getPix(charge.txid);
    } catch (err) {
      if (creating && isNotFound(err)) {
        await endCharge(charge.id, { status: 'FALHOU' }, { source, kind: 'not_found', raw: errorInfo(err) });
        return;
      }
      throw err;
    }
    await logEvent(deps.db, charge.id, source, state.status, state.raw);
    if (creating) await repo.updateCharge(deps.db, charge.id, { expiresAt: state.expiresAt });
    if (state.status === 'CONCLUIDA' && state.endToEndId) return settlePaidPix(charge.id, state);
    if (charge.status !== 'ATIVA') return;
    if (state.status === 'ATIVA') {
      if (state.expiresAt.getTime() > now().getTime()) return;
      // Past the provider's deadline: remove it there first, so no payment can race our release.
      const removed = await provider.cancelPix(charge.txid);
      await logEvent(deps.db, charge.id, source, `cancel:${removed.status}`, removed.raw);
      if (removed.status === 'CONCLUIDA' && removed.endToEndId) return settlePaidPix(charge.id, removed);
    }
    const ended = await endCharge(charge.id, { status: 'EXPIRADA' });
    if (ended) deps.log.info({ txid: ended.txid, chargeId: ended.id }, 'charge expired');
  }

  async function reconcileCard(charge: ChargeRow, source: PaymentEventSource): Promise<void> {
    const { provider, now } = deps;
    if (!OPEN.has(charge.status) && charge.status !== 'CONCLUIDA') return;
    if (!charge.providerChargeId) {
      const age = now().getTime() - charge.createdAt.getTime();
      if (charge.status === 'ATIVA' && age > CARD_REVIEW_SECONDS * 1000)
        // The process died during the card call: the outcome is unknown, not refused.
        await repo.updateCharge(deps.db, charge.id, { status: 'EM_ANALISE', updatedAt: now() });
      else if (charge.status === 'EM_ANALISE' && age > CARD_UNKNOWN_GIVE_UP_MS)
        await endCharge(
          charge.id,
          { status: 'FALHOU', reason: 'A operadora não confirmou o pagamento.' },
          { source, kind: 'gave_up', raw: null },
        ).then((row) =>
          row ? repo.updateCharge(deps.db, row.id, { attention: 'resultado_desconhecido' }) : null,
        );
      return;
    }
    if (charge.status === 'CONCLUIDA') return;
    const result = await provider.getCardCharge(charge.providerChargeId);
    await applyCard(charge.id, cardNews(result), source);
  }

  function cardNews(result: CardChargeResult): CardNews {
    return {
      status: result.status,
      providerChargeId: result.chargeId,
      ...(result.refusalReason ? { reason: result.refusalReason } : {}),
      installments: result.installments,
      installmentValueCents: result.installmentValueCents,
      totalCents: result.totalCents,
      raw: result.raw,
    };
  }

  /**
   * Moves a card charge on what the provider said. Only `paid`/`settled` fulfil; `waiting` and
   * `approved` keep the units held; `unpaid`/`canceled` give them back; a later `refunded` or
   * `contested` on a fulfilled charge is flagged for staff.
   */
  async function applyCard(chargeId: number, news: CardNews, source: PaymentEventSource) {
    const { db, now, log } = deps;
    const result = await db.transaction(async (tx) => {
      const row = await repo.lockCharge(tx, chargeId);
      if (!row) return null;
      await logEvent(tx, row.id, source, news.status, news.raw);
      const known = {
        providerStatus: news.status,
        updatedAt: now(),
        ...(news.providerChargeId && !row.providerChargeId
          ? { providerChargeId: news.providerChargeId }
          : {}),
        ...(news.installmentValueCents !== undefined
          ? { installmentValueCents: news.installmentValueCents }
          : {}),
      };
      const handler = handlerFor(row.purpose);
      switch (news.status) {
        case 'paid':
        case 'settled': {
          if (row.status === 'CONCLUIDA' || row.status === 'DEVOLVIDA') return { row };
          if (!OPEN.has(row.status)) {
            const held = await attempt(tx, (sp) => handler.reserve(sp, row.id, row.draft));
            if (!held)
              return {
                row: await repo.updateCharge(tx, row.id, { ...known, attention: 'pago_sem_estoque' }),
              };
          }
          const confirmed = await repo.updateCharge(tx, row.id, {
            ...known,
            status: 'CONCLUIDA',
            paidAt: now(),
            reason: null,
            ...(news.totalCents ? { amountCents: news.totalCents } : {}),
            ...(news.installments ? { installments: news.installments } : {}),
          });
          const fulfilled = await attempt(tx, (sp) => handler.fulfil(sp, confirmed));
          if (!fulfilled) {
            await handler.release(tx, row.id, row.draft);
            return { row: await repo.updateCharge(tx, row.id, { attention: 'pago_sem_vaga' }) };
          }
          return { row: confirmed, fulfilledId: fulfilled.value.id };
        }
        case 'waiting':
        case 'approved':
          return {
            row: await repo.updateCharge(tx, row.id, {
              ...known,
              ...(row.status === 'ATIVA' ? { status: 'EM_ANALISE' as const } : {}),
            }),
          };
        case 'unpaid':
        case 'canceled': {
          if (!OPEN.has(row.status)) {
            return {
              row: await repo.updateCharge(tx, row.id, {
                ...known,
                ...(row.status === 'CONCLUIDA' ? { attention: news.status } : {}),
              }),
            };
          }
          await handler.release(tx, row.id, row.draft);
          return {
            row: await repo.updateCharge(tx, row.id, {
              ...known,
              status: 'RECUSADA',
              reason: news.reason ?? 'Pagamento não autorizado pela operadora do cartão.',
            }),
          };
        }
        case 'refunded':
        case 'contested':
          return {
            row: await repo.updateCharge(tx, row.id, {
              ...known,
              ...(row.status === 'CONCLUIDA' ? { attention: news.status } : {}),
            }),
          };
      }
    });
    if (result)
      log.info({ chargeId, outcome: news.status, status: result.row.status }, 'card charge settled');
    return result;
  }

  /** Efí's card notification: the token is read back from the provider, never taken at its word. */
  async function receiveCardNotification(token: string): Promise<void> {
    const note = await deps.provider.cardNotification(token);
    const id = note.customId && /^\d+$/.test(note.customId) ? Number(note.customId) : undefined;
    const charge = await repo.findCardCharge(deps.db, {
      ...(id ? { id } : {}),
      providerChargeId: note.chargeId,
    });
    if (!charge) {
      deps.log.warn({ providerChargeId: note.chargeId }, 'card notification for an unknown charge');
      return;
    }
    await applyCard(
      charge.id,
      { status: note.status, providerChargeId: note.chargeId, raw: note.raw },
      'card_notification',
    );
  }

  /**
   * A webhook delivery: each txid is checked with the provider; unknown ones are ignored. A failing
   * entry does not stop the others, but is reported so the provider delivers again.
   */
  async function receivePixNotifications(txids: string[]): Promise<void> {
    let firstError: unknown = null;
    for (const txid of new Set(txids)) {
      const charge = await repo.findChargeByTxid(deps.db, txid);
      if (charge?.method !== 'pix') continue;
      try {
        await reconcile(charge.id, 'webhook');
      } catch (err) {
        deps.log.error({ txid, err: errorText(err) }, 'pix notification failed');
        firstError ??= err;
      }
    }
    if (firstError) throw firstError;
  }

  /** Every charge open, or closed by our side within a day, asked again; refunds never answered, sent. */
  async function reconcileAll(): Promise<number> {
    const ids = await repo.findToReconcile(deps.db, deps.now(), RECONCILE_BATCH);
    for (const id of ids) {
      await reconcile(id, 'reconcile').catch((err: unknown) =>
        deps.log.error({ chargeId: id, err: errorText(err) }, 'charge reconciliation failed'),
      );
    }
    for (const refund of await repo.findUnsentRefunds(deps.db, RECONCILE_BATCH)) await sendRefund(refund);
    return ids.length;
  }

  /** A charge by its txid, for the module that owns what it pays for. */
  function findByTxid(txid: string): Promise<ChargeRow | null> {
    return repo.findChargeByTxid(deps.db, txid);
  }

  /** What the purpose's open charges carry, matched on one draft field (optionally one account's only). */
  function openDrafts(
    tx: Tx,
    purpose: ChargePurpose,
    match: { field: string; value: string },
    onlyUserId?: number,
  ): Promise<unknown[]> {
    return repo.findOpenDrafts(tx, purpose, match, onlyUserId);
  }

  /** The charge once any transaction confirming it has ended (that transaction holds its row lock). */
  function settled(chargeId: number): Promise<ChargeRow | null> {
    return deps.db.transaction((tx) => repo.lockCharge(tx, chargeId));
  }

  /** Status of a charge for its owner (another user's charge does not exist for them). */
  async function status(user: AuthUser, txid: string): Promise<ChargeStatus> {
    let charge = await repo.findChargeByTxid(deps.db, txid);
    if (!charge || charge.userId !== user.id) throw notFound('Cobrança não encontrada.');
    if (OPEN.has(charge.status)) {
      // Polling covers a webhook that never arrived; a provider hiccup only leaves the state as it was.
      await reconcile(charge.id, 'poll').catch((err: unknown) =>
        deps.log.warn({ txid, err: errorText(err) }, 'charge status poll failed'),
      );
      charge = (await repo.findChargeByTxid(deps.db, txid))!;
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
      ...(charge.reason ? { reason: charge.reason } : {}),
      ...(charge.method === 'pix' && charge.pixCopiaECola ? { expiresAt: charge.expiresAt } : {}),
    };
  }

  /** Simulated mode only: the payer pays at the bank, then the same path as a webhook runs. */
  async function simulatePixPayment(txid: string): Promise<ChargeStatus & { txid: string }> {
    const { db, provider, now } = deps;
    if (!provider.simulator) throw notFound();
    const charge = await repo.findChargeByTxid(db, txid);
    if (charge?.method !== 'pix') throw notFound('Cobrança não encontrada.');
    const paid = provider.simulator.payPix(txid, now());
    await receivePixNotifications([txid]);
    const current = (await repo.findChargeByTxid(db, txid))!;
    if (!paid && current.status !== 'CONCLUIDA')
      throw conflict('Esta cobrança expirou e não pode mais ser paga.', 'cobranca_expirada');
    return { txid, ...(await describe(current)) };
  }

  async function installments(brand: CardBrand, totalCents: number): Promise<InstallmentOption[]> {
    return deps.provider.installments(brand, totalCents).catch((err: unknown) => {
      throw providerFailure(err, 'Não foi possível consultar as parcelas. Tente novamente em instantes.');
    });
  }

  /** A card attempt as the route answers it, from the stored charge (first answer or a replay). */
  function cardAnswer(row: ChargeRow, fulfilledId?: number): CardOutcome {
    if (row.status === 'ATIVA')
      throw new HttpError(
        409,
        'Seu pagamento ainda está sendo processado.',
        'pagamento_em_processamento',
        undefined,
        {
          txid: row.txid,
        },
      );
    if (row.status === 'RECUSADA')
      throw new HttpError(
        400,
        row.reason ?? 'Pagamento não autorizado pela operadora do cartão.',
        'pagamento_recusado',
        undefined,
        { txid: row.txid },
      );
    if (row.status !== 'CONCLUIDA' && row.status !== 'EM_ANALISE')
      throw new HttpError(
        502,
        'Não foi possível processar o pagamento com cartão. Tente novamente.',
        'payment_provider_error',
        undefined,
        { txid: row.txid },
      );
    return {
      txid: row.txid,
      status: row.status === 'CONCLUIDA' ? 'paid' : 'em_analise',
      chargeId: row.providerChargeId ?? row.txid,
      installments: row.installments,
      installmentValueCents: row.installmentValueCents ?? Math.round(row.amountCents / row.installments),
      totalCents: row.amountCents,
      purpose: row.purpose,
      ...(fulfilledId !== undefined ? { fulfilledId } : {}),
    };
  }

  async function replayCard(row: ChargeRow): Promise<CardOutcome> {
    const fulfilled =
      row.status === 'CONCLUIDA' ? await handlerFor(row.purpose).fulfilledBy(deps.db, row.id) : null;
    return cardAnswer(row, fulfilled?.id);
  }

  /**
   * Card: the attempt's key and the held units are committed before the provider is called; the
   * same key again answers the first attempt. A timeout leaves the charge EM_ANALISE (units held)
   * for reconciliation and Efí's notification to settle.
   */
  async function chargeCard(user: AuthUser, input: CardPayInput): Promise<CardOutcome> {
    const { db, provider, now, log, env } = deps;
    if (!isValidCpfOrCnpj(input.customer.cpf))
      throw badRequest('CPF do titular inválido.', 'validation_error', { cpf: 'CPF inválido.' });
    const birthProblem = cardHolderBirthProblem(input.customer.birth, now());
    if (birthProblem) throw badRequest(birthProblem, 'validation_error', { birth: birthProblem });
    const previous = await repo.findByIdempotencyKey(db, user.id, input.idempotencyKey);
    if (previous) return replayCard(previous);
    const withdrawn = await withdrawEarlierPix(user, input.purpose);
    const created = now();
    let pending: { charge: ChargeRow; prepared: Awaited<ReturnType<typeof prepare>> };
    try {
      pending = await db.transaction(async (tx) => {
        await endWithdrawn(tx, withdrawn);
        await guardOpenCharges(tx, user.id);
        const prepared = await prepare(tx, input.purpose, user, input.draft, input.claimedTotalCents);
        const charge = await repo.insertCharge(tx, {
          txid: newCardTxid(),
          method: 'cartao',
          provider: provider.name,
          purpose: input.purpose,
          userId: user.id,
          amountCents: prepared.amountCents,
          status: 'ATIVA',
          draft: prepared.draft,
          installments: input.installments,
          idempotencyKey: input.idempotencyKey,
          expiresAt: new Date(created.getTime() + CARD_REVIEW_SECONDS * 1000),
          createdAt: created,
        });
        await handlerFor(input.purpose).reserve(tx, charge.id, prepared.draft);
        return { charge, prepared };
      });
    } catch (err) {
      // The same key sent twice at once: the other request is the one paying.
      if (isUniqueViolation(err)) {
        const first = await repo.findByIdempotencyKey(db, user.id, input.idempotencyKey);
        if (first) return replayCard(first);
      }
      throw err;
    }
    const { charge, prepared } = pending;
    let result: CardChargeResult;
    try {
      result = await provider.chargeCard({
        paymentToken: input.paymentToken,
        installments: input.installments,
        amountCents: charge.amountCents,
        itemName: input.productName || prepared.description,
        customer: {
          name: input.customer.name,
          cpf: input.customer.cpf,
          email: input.customer.email,
          birth: input.customer.birth,
          ...(input.customer.phone ? { phone: input.customer.phone } : {}),
        },
        ...(prepared.billingAddress ? { billingAddress: prepared.billingAddress } : {}),
        customId: String(charge.id),
        notificationUrl: `${env.publicUrl}/api/webhooks/cartao/`,
      });
    } catch (err) {
      const refused =
        err instanceof PaymentProviderError && !(err instanceof PaymentProviderTimeout) && err.status < 500;
      const unknown = err instanceof PaymentProviderTimeout || !(err instanceof PaymentProviderError);
      if (unknown) {
        // Efí may have charged: hold the units and let reconciliation or the notification decide.
        await db.transaction(async (tx) => {
          await repo.updateCharge(tx, charge.id, { status: 'EM_ANALISE', updatedAt: now() });
          await logEvent(tx, charge.id, 'create', 'timeout', errorInfo(err));
        });
      } else {
        await endCharge(
          charge.id,
          {
            status: refused ? 'RECUSADA' : 'FALHOU',
            ...(refused ? { reason: (err as Error).message } : {}),
          },
          { source: 'create', kind: refused ? 'refused' : 'error', raw: errorInfo(err) },
        );
      }
      log.info({ chargeId: charge.id, outcome: unknown ? 'unknown' : 'error' }, 'card charge settled');
      return replayCard((await repo.findChargeById(db, charge.id))!);
    }
    let applied = await applyCard(charge.id, cardNews(result), 'create');
    if (result.status === 'approved' || result.status === 'waiting') {
      // `approved` is the network's yes before the money: one read often finds it already paid.
      const again = await provider.getCardCharge(result.chargeId).catch(() => null);
      if (again && again.status !== result.status)
        applied = await applyCard(charge.id, cardNews(again), 'poll');
    }
    const row = applied?.row ?? (await repo.findChargeById(db, charge.id))!;
    return cardAnswer(row, applied && 'fulfilledId' in applied ? applied.fulfilledId : undefined);
  }

  /** GET /api/pagamentos/: what the account should know about (pending, refused, returned). */
  async function listNoteworthy(user: AuthUser): Promise<PaymentListItem[]> {
    const since = new Date(deps.now().getTime() - NOTEWORTHY_DAYS * 86_400_000);
    const rows = await repo.listNoteworthy(deps.db, user.id, since);
    return rows.map(({ charge, refund }) => ({
      txid: charge.txid,
      finalidade: charge.purpose === 'order' ? 'pedido' : 'inscricao',
      metodo: charge.method,
      status: charge.status,
      valor: charge.amountCents / 100,
      criado_em: charge.createdAt.toISOString(),
      ...(charge.reason ? { motivo: charge.reason } : {}),
      ...(refund
        ? {
            devolucao: {
              status: refund.status,
              valor: refund.amountCents / 100,
              em: (refund.updatedAt ?? refund.createdAt).toISOString(),
            },
          }
        : {}),
    }));
  }

  /** The refund e-mail job: tells the payer how much comes back, why, and when. */
  async function sendRefundNotice(chargeId: number): Promise<void> {
    const charge = await repo.findChargeById(deps.db, chargeId);
    const refund = charge ? await repo.findRefund(deps.db, chargeId) : null;
    const payer = charge ? handlerFor(charge.purpose).payer?.(charge.draft) : undefined;
    if (!charge || !refund || !payer) return;
    await deps.mail.send(refundNoticeMail({ env: deps.env, payer, refund, purpose: charge.purpose }));
    deps.log.info({ chargeId }, 'refund notice sent');
  }

  /** Registers the Pix webhook and reads it back; the outcome shows in the health check. */
  async function registerWebhook(url: string): Promise<void> {
    webhookState = 'pendente';
    try {
      await deps.provider.registerPixWebhook(url);
      const registered = await deps.provider.getPixWebhook();
      webhookState = registered?.url === url ? 'ok' : 'erro';
    } catch (err) {
      webhookState = 'erro';
      deps.log.error({ err: errorText(err) }, 'pix webhook registration failed');
    }
  }

  return {
    registerPurpose,
    createPix,
    receivePixNotifications,
    receiveCardNotification,
    reconcile,
    reconcileAll,
    /** Kept for callers that only mean "settle what is due". */
    expireDue: reconcileAll,
    findByTxid,
    openDrafts,
    settled,
    status,
    simulatePixPayment,
    installments,
    chargeCard,
    listNoteworthy,
    returnPaid,
    sendRefund,
    refundOf: (chargeId: number) => repo.findRefund(deps.db, chargeId),
    chargeById: (chargeId: number) => repo.findChargeById(deps.db, chargeId),
    sendRefundNotice,
    registerWebhook,
    webhookState: () => webhookState,
    events: (chargeId: number) => repo.listEvents(deps.db, chargeId),
    needingAttention: () => repo.listNeedingAttention(deps.db),
  };
}

/** What a failed provider call is recorded as (the message is ours or the provider's, never personal data). */
function errorInfo(err: unknown) {
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

/** Charges and their confirmation; other modules register what a charge can pay for. */
export type PaymentsService = ReturnType<typeof createPaymentsService>;
