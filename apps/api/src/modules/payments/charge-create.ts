import { randomBytes } from 'node:crypto';
import { isValidCpf, isValidCpfOrCnpj } from '@passada/core/documents';
import { formatBRL } from '@passada/core/money';
import type { Tx } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import {
  type CardChargeResult,
  PaymentProviderError,
  PaymentProviderTimeout,
  type PaymentsProvider,
  type PixState,
} from '../../providers/payments/index.ts';
import { cardHolderBirthProblem } from './payment-rules.ts';
import type { ChargeRow } from './payments.repository.ts';
import * as repo from './payments.repository.ts';
import {
  CARD_REVIEW_SECONDS,
  CannotFulfil,
  type ChargePurpose,
  errorInfo,
  isNotFound,
  isUniqueViolation,
  OPEN,
  type PaymentsContext,
} from './payments-context.ts';
import type { Reconciliation } from './reconcile.ts';

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

/** The provider failed without saying no (timeout, 5xx, no answer): the call may have taken effect. */
const mayHaveCreated = (err: unknown) =>
  !(err instanceof PaymentProviderError) || err instanceof PaymentProviderTimeout || err.status >= 500;

/** Our own id for a card charge: alphanumeric like a txid, so one status route serves both. */
const newCardTxid = () => `cartao${randomBytes(12).toString('hex')}`;
/** Our own id for a confirmation with nothing to pay, in the same shape. */
const newFreeTxid = () => `gratis${randomBytes(12).toString('hex')}`;

export const NOTHING_TO_PAY =
  'Não há nada a pagar: confirme a inscrição ou o pedido sem pagamento (Confirmar inscrição).';

export interface FreeConfirmed {
  txid: string;
  purpose: ChargePurpose;
  /** The order or registration created. */
  fulfilledId: number;
}

/**
 * Creating a charge (docs/architecture.md §5): reserve and commit, then the provider with no
 * transaction open, then record its answer, or compensate (the units go back) when it failed.
 */
export function createChargeCreation(ctx: PaymentsContext, reconciliation: Reconciliation) {
  const { deps, handlerFor, logEvent, providerFailure, endCharge } = ctx;
  const { settlePaidPix, applyCard, cardNews } = reconciliation;

  /** Prices the draft and refuses when the browser's total disagrees (never charge the browser's number). */
  async function prepare(
    tx: Tx,
    purpose: ChargePurpose,
    user: AuthUser,
    draft: unknown,
    claimedCents: number,
    payerCpf?: string,
    free = false,
  ) {
    const prepared = await handlerFor(purpose).prepare(tx, {
      user,
      draft,
      ...(payerCpf ? { payerCpf } : {}),
    });
    if (!Number.isInteger(prepared.amountCents) || prepared.amountCents < 0)
      throw new Error(`purpose ${purpose} priced a draft at ${prepared.amountCents}`);
    // Nothing to pay never reaches a provider (a Pix needs at least R$ 0,01): the free path confirms it.
    if (prepared.amountCents === 0 && !free)
      throw new HttpError(409, NOTHING_TO_PAY, 'nada_a_pagar', undefined, { total_correto: 0 });
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

  /**
   * Inside the caller's transaction: the withdrawn charges end and give their units back; with a
   * `reason` (what they paid for no longer stands) it is kept, and a payment that still arrives is
   * refunded with it. Answers the ids really ended.
   */
  async function endWithdrawn(tx: Tx, ids: number[], reason?: string): Promise<number[]> {
    const ended: number[] = [];
    for (const id of ids) {
      const row = await repo.lockCharge(tx, id);
      if (!row || !OPEN.has(row.status)) continue;
      await repo.updateCharge(tx, id, {
        status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
        ...(reason ? { reason } : {}),
        updatedAt: deps.now(),
      });
      await handlerFor(row.purpose).release(tx, id, row.draft);
      ended.push(id);
    }
    return ended;
  }

  /**
   * A Pix that must never be paid is removed at the provider: one whose creation was not answered
   * (timeout, 5xx) may still have been created there (nobody was shown its code, but it exists until
   * its deadline), and one ended by `endWithdrawn` after commit. A removal that reveals a payment
   * settles it (fulfilled or refunded).
   */
  async function removeAtProvider(
    chargeId: number,
    txid: string,
    source: 'create' | 'reconcile' = 'create',
  ): Promise<void> {
    try {
      const state = await deps.provider.cancelPix(txid);
      await logEvent(deps.db, chargeId, source, `cancel:${state.status}`, state.raw);
      if (state.status === 'CONCLUIDA') await settlePaidPix(chargeId, state);
    } catch (err) {
      // Not there: it was never created.
      if (isNotFound(err)) return;
      deps.log.warn({ txid, err: errorInfo(err) }, 'could not remove a pix at the provider');
      // Any other failure (a timeout on a slow day) is tried again by the `charges.remove` job, with its
      // retries, until the provider answers: a Pix that may exist there is never left payable.
      if (source === 'create') await deps.jobs.send('charges.remove', { chargeId });
      else throw err;
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
    const { charge, description } = await transactionRetrying(db, async (tx) => {
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
      if (mayHaveCreated(err)) await removeAtProvider(charge.id, txid);
      throw providerFailure(err, 'Não foi possível gerar o Pix. Tente novamente em instantes.');
    }
    // 3a. Record the answer and its event together; the deadline is the provider's.
    await repo.recordPixCreated(
      db,
      charge.id,
      { pixCopiaECola: pix.pixCopiaECola, expiresAt: pix.expiresAt },
      { source: 'create', kind: 'ATIVA', raw: { txid, expiresAt: pix.expiresAt.toISOString() }, at: now() },
    );
    log.info(
      { txid, chargeId: charge.id, amountCents: charge.amountCents, purpose: input.purpose },
      'pix charge created',
    );
    // The Pix code on WhatsApp too, for a payer who opted in (docs/decisions/0045).
    if (handlerFor(input.purpose).whatsappContact?.(charge.draft))
      await deps.jobs.send('whatsapp.pix-code', { chargeId: charge.id });
    return {
      txid,
      pixCopiaECola: pix.pixCopiaECola,
      qrCodeDataUri: pix.qrCodeDataUri,
      amountCents: charge.amountCents,
      expiresAt: pix.expiresAt,
    };
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
    // Ended for a reason of its own (a card paid for a registration cancelled meanwhile, returned at
    // once; or ended while its call was under way): a refusal in the shop's words, not a provider error.
    if (row.reason && (row.status === 'DEVOLVIDA' || row.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR'))
      throw new HttpError(
        409,
        row.status === 'DEVOLVIDA'
          ? `${row.reason} O valor cobrado no cartão foi devolvido.`
          : `${row.reason} Se o cartão chegar a ser cobrado, o valor é devolvido.`,
        row.status === 'DEVOLVIDA' ? 'pagamento_devolvido' : 'pagamento_encerrado',
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
      pending = await transactionRetrying(db, async (tx) => {
        await endWithdrawn(tx, withdrawn);
        await guardOpenCharges(tx, user.id);
        const prepared = await prepare(
          tx,
          input.purpose,
          user,
          input.draft,
          input.claimedTotalCents,
          // The holder's CPF goes to the provider with the card; a CNPJ holder names no buyer CPF.
          isValidCpf(input.customer.cpf) ? input.customer.cpf.replace(/\D/g, '') : undefined,
        );
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
            // Efí failed on its side (5xx) after receiving the card: the card may have been charged.
            ...(refused ? { reason: (err as Error).message } : { attention: 'erro_na_operadora' }),
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

  /**
   * Nothing to pay (docs/decisions/0028-free-registrations.md): the same pricing, holds and
   * fulfilment as a paid charge, in ONE transaction and with no provider: the charge is written
   * CONCLUIDA with amount 0 and method `gratuito`, so the registration or order points at it like a
   * paid one and cancelling it gives the places back through the same path. A refusal (sold out,
   * deadline, CPF already registered, the price is not zero) leaves nothing behind.
   */
  /**
   * A charge with nothing to pay, settled as it is written (method `gratuito`, provider `nenhum`): a free
   * registration, or a team's prepaid place a member claims (docs/decisions/0073). In the caller's
   * transaction; the caller holds what it pays for.
   */
  async function recordFree(
    tx: Tx,
    input: { txid?: string; purpose: ChargePurpose; userId: number; draft: unknown },
  ): Promise<ChargeRow> {
    const at = deps.now();
    const row = await repo.insertCharge(tx, {
      txid: input.txid ?? newFreeTxid(),
      method: 'gratuito',
      provider: 'nenhum',
      purpose: input.purpose,
      userId: input.userId,
      amountCents: 0,
      status: 'CONCLUIDA',
      draft: input.draft,
      expiresAt: at,
      paidAt: at,
      createdAt: at,
    });
    await logEvent(tx, row.id, 'create', 'gratuito', null);
    return row;
  }

  async function confirmFree(input: {
    user: AuthUser;
    purpose: ChargePurpose;
    draft: unknown;
    claimedTotalCents: number;
  }): Promise<FreeConfirmed> {
    const { db, log } = deps;
    // The account's own open Pix for the same thing would refuse it as pending: it goes first.
    const withdrawn = await withdrawEarlierPix(input.user, input.purpose);
    const txid = newFreeTxid();
    const done = await transactionRetrying(db, async (tx) => {
      await endWithdrawn(tx, withdrawn);
      const prepared = await prepare(
        tx,
        input.purpose,
        input.user,
        input.draft,
        input.claimedTotalCents,
        undefined,
        true,
      );
      const row = await recordFree(tx, {
        txid,
        purpose: input.purpose,
        userId: input.user.id,
        draft: prepared.draft,
      });
      const handler = handlerFor(input.purpose);
      await handler.reserve(tx, row.id, prepared.draft);
      const fulfilled = await handler.fulfil(tx, row).catch((err: unknown) => {
        // Nothing was paid, so nothing to return: the whole confirmation is refused instead.
        if (err instanceof CannotFulfil) throw new HttpError(409, err.message, 'nao_confirmada');
        throw err;
      });
      return { chargeId: row.id, fulfilledId: fulfilled.id };
    });
    log.info(
      { txid, chargeId: done.chargeId, purpose: input.purpose, fulfilledId: done.fulfilledId },
      'free confirmation',
    );
    return { txid, purpose: input.purpose, fulfilledId: done.fulfilledId };
  }

  return { createPix, chargeCard, confirmFree, recordFree, endWithdrawn, removeAtProvider };
}
