import { randomBytes } from 'node:crypto';
import type { TransferInvite, TransferPrice, TransferStatus } from '@passada/core/contracts/after-sale';
import { formatCpf } from '@passada/core/documents';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { isUniqueViolation } from '../payments/payments.service.ts';
import { transferInviteMail } from './after-sale-mail.ts';
import type { Holder } from './holder.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import type { ChangeManager } from './registration-change-manager.ts';
import type { Prepare } from './registration-prepare.ts';
import type { Pricing } from './registration-price.ts';
import * as transfers from './registration-transfer.repository.ts';
import { createTransferPayment, hashToken, LATE } from './registration-transfer-paid.ts';
import * as repo from './registrations.repository.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';

export type { Holder };
export { LATE };

/**
 * Who may ask a transfer: the holder, or staff in the back office acting for the runner who asked them
 * (`loja`, docs/decisions/0083), on any registration, through the same rules and the same invitation.
 */
export type TransferHolder = Holder | { by: 'loja' };

/** The registration the holder may act on; any other answers 404 as if it did not exist. */
export async function holderRegistration(db: Db | Tx, holder: TransferHolder, id: number, lock?: 'lock') {
  const row = lock ? await repo.lockRegistration(db as Tx, id) : await repo.findById(db, id);
  const mine =
    holder.by === 'loja'
      ? true
      : holder.by === 'comprador'
        ? row?.accountUserId === holder.user.id
        : holder.registrationId === id;
  if (!row || !mine) throw notFound('Inscrição não encontrada.');
  return row;
}

/** What a transfer charge's draft carries besides the new runner's data. */
export interface TransferDraftPart {
  id: number;
  registrationId: number;
  feeCents: number;
  differenceCents: number;
}

/** A registration draft that pays for a transfer (`transferencia` is the invite's token on the wire). */
export const isTransferDraft = (draft: unknown): boolean =>
  typeof (draft as { transferencia?: unknown } | null)?.transferencia === 'string' ||
  typeof (draft as { transfer?: unknown } | null)?.transfer === 'object';

/**
 * The transfer of a registration to another runner (docs/decisions/0041): the holder names them, the
 * new runner completes it through the e-mailed link, paying the event's fee plus the difference of a
 * lost 60+ half price through the 'registration' charge purpose. Every rule is a step's: the deadline
 * and fee are the event's after-sale rules, the price is `priceChoice`, the checks of the person
 * (birth date, age limits, termo, CPF free) are `registration-prepare.ts`'s.
 */
export function createTransfer(
  deps: RegistrationsServiceDeps,
  steps: {
    pricing: Pricing;
    prepare: Prepare;
    manager: ChangeManager;
    proofs: Pick<PriceRuleProofs, 'leaveRule'>;
  },
) {
  // The transfer's payment: the charge's prepare, reserve, recheck and fulfil (registration-transfer-paid.ts).
  const paid = createTransferPayment(deps, steps);
  const { transferRules, priceFor, byToken } = paid;

  /**
   * Each invitation is an e-mail to an address the account never proved: at most
   * TRANSFER_INVITES_PER_REGISTRATION_PER_HOUR per registration and TRANSFER_INVITES_PER_ACCOUNT_PER_HOUR
   * per buying account (one to the account's own e-mail is not counted), 429 past them. Serialised by
   * the registration's row lock; two registrations of one account at once may pass by one.
   */
  async function checkInviteLimits(tx: Tx, holder: TransferHolder, id: number, email: string) {
    const since = new Date(deps.now().getTime() - 3600_000);
    const own =
      holder.by === 'comprador' ? ((await deps.users.findContact(holder.user.id, tx))?.email ?? null) : null;
    if (own && own.toLowerCase() === email.toLowerCase()) return;
    const tooMany = () =>
      new HttpError(
        429,
        'Muitos convites de transferência enviados na última hora. Tente de novo mais tarde.',
        'limite_de_envios',
      );
    if (
      (await transfers.countInvitesSince(tx, { registrationId: id }, since, own)) >=
      deps.env.TRANSFER_INVITES_PER_REGISTRATION_PER_HOUR
    )
      throw tooMany();
    if (
      holder.by === 'comprador' &&
      (await transfers.countInvitesSince(tx, { accountUserId: holder.user.id }, since, own)) >=
        deps.env.TRANSFER_INVITES_PER_ACCOUNT_PER_HOUR
    )
      throw tooMany();
  }

  /** GET /api/inscricoes/{id}/transferencia/ (and through the link): allowed, the fee, the pending one. */
  async function status(holder: TransferHolder, id: number): Promise<TransferStatus> {
    const row = await holderRegistration(deps.db, holder, id);
    const check = await transferRules(deps.db, row);
    const pending = await transfers.pendingOf(deps.db, id);
    const live = pending && pending.expiresAt > deps.now() ? pending : null;
    return {
      permitido: check.allowed && !live,
      motivo: check.allowed
        ? live
          ? 'Já existe uma transferência aguardando a nova pessoa.'
          : null
        : check.reason,
      taxa: centsToReais(check.rules.transferFeeCents),
      pendente: live
        ? {
            id: live.id,
            nome_completo: live.toName,
            email: live.toEmail,
            expira_em: live.expiresAt.toISOString(),
          }
        : null,
    };
  }

  /**
   * POST /api/inscricoes/{id}/transferir/: under the registration's row lock, within the rules, the
   * kit not picked up, no other transfer pending, the new CPF not already in these categories. The
   * invite is e-mailed to the new runner after commit; the link holds a random token, stored hashed.
   */
  async function request(
    holder: TransferHolder,
    id: number,
    to: { nome_completo: string; cpf: string; email: string },
  ): Promise<TransferStatus> {
    const token = newToken();
    const created = await deps.db.transaction((tx) => requestIn(tx, holder, id, to, token));
    await announce(created, token);
    return status(holder, id);
  }

  const newToken = () => randomBytes(32).toString('base64url');

  /** The transfer asked, in the caller's transaction (a list of changes ends with it): every rule. */
  async function requestIn(
    tx: Tx,
    holder: TransferHolder,
    id: number,
    to: { nome_completo: string; cpf: string; email: string },
    token: string,
  ) {
    const row = await holderRegistration(tx, holder, id, 'lock');
    const check = await transferRules(tx, row);
    if (!check.allowed) throw conflict(check.reason, 'transferencia_nao_permitida');
    await kitPickedUp(tx, [id], 'a inscrição não pode ser transferida');
    await transfers.expireDue(tx, id, deps.now());
    if (await transfers.pendingOf(tx, id))
      throw conflict(
        'Já existe uma transferência aguardando a nova pessoa. Cancele-a antes de pedir outra.',
        'transferencia_pendente',
      );
    await checkInviteLimits(tx, holder, id, to.email);
    if (to.cpf === row.cpf)
      throw badRequest('Informe o CPF da nova pessoa, não o de quem já está inscrito.', 'mesmo_titular', {
        cpf: 'Informe o CPF da nova pessoa, não o de quem já está inscrito.',
      });
    const ids = (await repo.categoriesOf(tx, id)).map((c) => c.id);
    // The new sale's rules for the new runner (the lottery's result, the CPF free), asked now so a
    // transfer that could never be paid is not offered.
    await steps.manager.check(
      tx,
      row,
      check.event,
      { kind: 'transferencia', to: { userId: null, cpf: to.cpf } },
      ids,
    );
    // The link lasts the settings' hours, never past the rules' last day (its end, in Fortaleza).
    const now = deps.now();
    const endOfLastDay = new Date(`${check.lastDay}T23:59:59.999-03:00`);
    const expiresAt = new Date(
      Math.min(now.getTime() + deps.env.TRANSFER_INVITE_HOURS * 3600_000, endOfLastDay.getTime()),
    );
    return transfers
      .insertTransfer(tx, {
        registrationId: id,
        tokenHash: hashToken(token),
        status: 'pendente',
        actor: holder.by,
        toName: to.nome_completo,
        toCpf: to.cpf,
        toEmail: to.email,
        fromName: row.fullName,
        fromEmail: row.email,
        feeCents: check.rules.transferFeeCents,
        expiresAt,
        createdAt: now,
      })
      .catch((err: unknown) => {
        // The partial unique index: another request of the same registration committed first.
        if (isUniqueViolation(err))
          throw conflict('Já existe uma transferência aguardando a nova pessoa.', 'transferencia_pendente');
        throw err;
      })
      .then((t) => ({ transfer: t, event: check.event }));
  }

  /** After commit: the invitation e-mailed to the new runner (a failure is logged, the transfer stands). */
  async function announce(created: Awaited<ReturnType<typeof requestIn>>, token: string) {
    deps.log.info(
      { registrationId: created.transfer.registrationId, transferId: created.transfer.id },
      'registration transfer requested',
    );
    await sendInvite(created.transfer, created.event.name, token).catch((err: unknown) =>
      deps.log.error({ transferId: created.transfer.id, err }, 'transfer invite e-mail failed'),
    );
  }

  async function sendInvite(t: transfers.TransferRow, eventName: string, token: string) {
    const link = `${deps.env.publicUrl}/inscricoes/transferencia/${token}`;
    await deps.mail.send(transferInviteMail({ env: deps.env, transfer: t, eventName, link }));
  }

  /** POST /api/inscricoes/{id}/transferencia/cancelar/: the holder withdraws the pending transfer. */
  async function cancelPending(holder: TransferHolder, id: number): Promise<TransferStatus> {
    await deps.db.transaction(async (tx) => {
      await holderRegistration(tx, holder, id, 'lock');
      await transfers.expireDue(tx, id, deps.now());
      const pending = await transfers.pendingOf(tx, id);
      if (!pending) throw notFound('Não há transferência pendente desta inscrição.');
      await transfers.endTransfer(tx, pending.id, 'cancelada', deps.now());
      // Its open charges end with it (a Pix removed at the bank); one paid anyway is returned with
      // this reason (fulfil refuses an ended transfer).
      await deps.payments.endOpenFor(
        tx,
        'registration',
        { path: ['transfer', 'id'], value: String(pending.id) },
        LATE.withdrawn,
      );
    });
    return status(holder, id);
  }

  /** GET /api/transferencias/{token}/: what the new runner sees (no login needed to read it). */
  async function invite(token: string): Promise<TransferInvite> {
    const { t, state } = await byToken(deps.db, token);
    const row = await repo.findById(deps.db, t.registrationId);
    const event = row && (await deps.events.findEventRow(row.eventId));
    if (!row || !event) throw notFound('Transferência não encontrada.');
    const categories = await repo.categoriesOf(deps.db, row.id);
    return {
      status: state,
      inscricao: row.id,
      evento: { id: row.eventId, nome_evento: event.name },
      categoria_evento: categories.map((c) => c.id),
      categorias: categories.map((c) => c.name),
      tamanho_camisa: row.kitSize,
      nome_completo: t.toName,
      cpf: formatCpf(t.toCpf),
      email: t.toEmail,
      de: t.fromName,
      taxa: centsToReais(t.feeCents),
      expira_em: t.expiresAt.toISOString(),
    };
  }

  /** GET /api/transferencias/{token}/preco/: the fee plus the difference for this birth date. */
  async function price(token: string, birthDate: string): Promise<TransferPrice> {
    const { t } = await byToken(deps.db, token);
    const row = await repo.findById(deps.db, t.registrationId);
    if (!row) throw notFound('Transferência não encontrada.');
    const p = await priceFor(deps.db, row, birthDate, t.feeCents);
    // Said, never silent: a special price was the old runner's right and does not pass on.
    const ruleId = (await repo.categoriesWithRules(deps.db, row.id)).find(
      (c) => c.priceRuleId !== null,
    )?.priceRuleId;
    const rule = ruleId ? (await deps.events.priceRules.names(deps.db, [ruleId])).get(ruleId) : undefined;
    return {
      taxa: centsToReais(t.feeCents),
      diferenca: centsToReais(p.differenceCents),
      total: centsToReais(p.totalCents),
      meia_entrada: p.after.senior,
      ...(ruleId
        ? {
            aviso: `O preço especial «${rule?.name ?? 'preço especial'}» era de quem fez a inscrição e não passa na transferência: a diferença até o preço do lote está no total.`,
          }
        : {}),
    };
  }

  return {
    status,
    request,
    cancelPending,
    invite,
    price,
    prepare: paid.prepare,
    recheck: paid.recheck,
    reserve: paid.reserve,
    fulfil: paid.fulfil,
    fulfilledBy: paid.fulfilledBy,
    sendTransferred: paid.sendTransferred,
    transferRules,
    /** A transfer asked inside a list of changes (registration-change-list.ts), then announced. */
    requestIn,
    announce,
    newToken,
  };
}

export type Transfer = ReturnType<typeof createTransfer>;
