import { createHash, randomBytes } from 'node:crypto';
import { eventStart, withinDay } from '@passada/core/after-sale';
import type { TransferInvite, TransferPrice, TransferStatus } from '@passada/core/contracts/after-sale';
import { DUPLICATE_CPF, ParticipantSchema } from '@passada/core/contracts/registrations';
import { formatCpf } from '@passada/core/documents';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import {
  badRequest,
  conflict,
  HttpError,
  notFound,
  validationError,
  zodIssues,
} from '../../plugins/errors.ts';
import { CannotFulfil, type ChargeRow, isUniqueViolation } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import { transferDoneMail, transferInviteMail } from './after-sale-mail.ts';
import type { Holder } from './holder.ts';
import type { ChangeManager } from './registration-change-manager.ts';
import { holderColumns } from './registration-confirm.ts';
import type { Prepare } from './registration-prepare.ts';
import type { Pricing } from './registration-price.ts';
import * as transfers from './registration-transfer.repository.ts';
import * as repo from './registrations.repository.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';

export type { Holder };

/** The registration the holder may act on; any other answers 404 as if it did not exist. */
export async function holderRegistration(db: Db | Tx, holder: Holder, id: number, lock?: 'lock') {
  const row = lock ? await repo.lockRegistration(db as Tx, id) : await repo.findById(db, id);
  const mine =
    holder.by === 'comprador' ? row?.accountUserId === holder.user.id : holder.registrationId === id;
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

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const CLOSED = 'Esta transferência não está mais aberta: peça a quem a enviou que faça uma nova.';

/** Why a transfer's payment that arrived too late is returned. */
export const LATE = {
  cancelled: 'A inscrição foi cancelada antes de o pagamento da transferência chegar.',
  withdrawn: 'A transferência foi cancelada por quem a pediu antes de o pagamento chegar.',
  ended: 'A transferência já tinha expirado ou sido concluída quando o pagamento chegou.',
  kit: 'O kit desta inscrição já tinha sido retirado quando o pagamento chegou.',
};

/**
 * The transfer of a registration to another runner (docs/decisions/0041): the holder names them, the
 * new runner completes it through the e-mailed link, paying the event's fee plus the difference of a
 * lost 60+ half price through the 'registration' charge purpose. Every rule is a step's: the deadline
 * and fee are the event's after-sale rules, the price is `priceChoice`, the checks of the person
 * (birth date, age limits, termo, CPF free) are `registration-prepare.ts`'s.
 */
export function createTransfer(
  deps: RegistrationsServiceDeps,
  steps: { pricing: Pricing; prepare: Prepare; manager: ChangeManager },
) {
  /** Whether the event's rules let this registration be transferred now, and the fee. */
  async function transferRules(db: Db | Tx, row: repo.RegistrationRow) {
    const event = await deps.events.findEventRow(row.eventId, db);
    if (!event) throw notFound('Evento não encontrado.');
    const { rules } = await afterSale.findRules(db, row.eventId);
    const lastDay = rules.transferUntil ?? event.registrationDeadline;
    const now = deps.now();
    const refused = (reason: string) => ({ allowed: false as const, reason, event, rules, lastDay });
    if (row.cancelledAt) return refused('Esta inscrição foi cancelada.');
    if (!rules.transferAllowed) return refused('Este evento não permite transferir inscrições.');
    if (now.getTime() >= eventStart(event.startDate, event.time).getTime())
      return refused('O evento já começou: a inscrição não pode mais ser transferida.');
    if (!withinDay(rules.transferUntil, event.registrationDeadline, now))
      return refused('O prazo de transferência deste evento terminou.');
    return { allowed: true as const, reason: null, event, rules, lastDay };
  }

  /** The fee and the difference a new runner born on `birthDate` pays (the lot in force prices both). */
  async function priceFor(db: Db | Tx, row: repo.RegistrationRow, birthDate: string, feeCents: number) {
    const ids = (await repo.categoriesOf(db, row.id)).map((c) => c.id);
    const before = await steps.pricing.priceChoice(db, row.eventId, ids, row.birthDate);
    const after = await steps.pricing.priceChoice(db, row.eventId, ids, birthDate);
    const sum = (items: { priceCents: number }[]) => items.reduce((s, i) => s + i.priceCents, 0);
    // A new runner who loses the 60+ half price pays the difference; one who gains it gets nothing back
    // (the registration was paid by someone else, whose money it stays).
    const differenceCents = Math.max(0, sum(after.items) - sum(before.items));
    return { ids, after, differenceCents, totalCents: feeCents + differenceCents };
  }

  /**
   * Each invitation is an e-mail to an address the account never proved: at most
   * TRANSFER_INVITES_PER_REGISTRATION_PER_HOUR per registration and TRANSFER_INVITES_PER_ACCOUNT_PER_HOUR
   * per buying account (one to the account's own e-mail is not counted), 429 past them. Serialised by
   * the registration's row lock; two registrations of one account at once may pass by one.
   */
  async function checkInviteLimits(tx: Tx, holder: Holder, id: number, email: string) {
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
  async function status(holder: Holder, id: number): Promise<TransferStatus> {
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
    holder: Holder,
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
    holder: Holder,
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
  async function cancelPending(holder: Holder, id: number): Promise<TransferStatus> {
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

  /** The transfer of a link's token, its status as of now. */
  async function byToken(db: Db | Tx, token: string) {
    const t = await transfers.findByTokenHash(db, hashToken(token));
    if (!t) throw notFound('Transferência não encontrada.');
    const state = t.status === 'pendente' && t.expiresAt <= deps.now() ? 'expirada' : t.status;
    return { t, state };
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
    return {
      taxa: centsToReais(t.feeCents),
      diferenca: centsToReais(p.differenceCents),
      total: centsToReais(p.totalCents),
      meia_entrada: p.after.senior,
    };
  }

  /**
   * The registration purpose's prepare for a transfer draft: the new runner's data checked by the
   * same steps as a new registration (birth date, age limits of the categories, PCD, termo, CPF free)
   * and priced: the fee when asked plus the difference of the lot in force.
   */
  async function prepare(tx: Tx, input: { user: AuthUser; draft: unknown }) {
    const raw = input.draft as Record<string, unknown>;
    const { t, state } = await byToken(tx, String(raw.transferencia));
    // Under the registration's row lock, as a cancellation: one committed meanwhile is seen here,
    // before any charge is made.
    const row = await repo.lockRegistration(tx, t.registrationId);
    if (!row) throw notFound('Transferência não encontrada.');
    if (row.cancelledAt)
      throw conflict(
        'Esta inscrição foi cancelada: a transferência não pode mais ser paga.',
        'inscricao_cancelada',
      );
    // (A withdrawal committed meanwhile is seen by `reserve`, under the transfer's row lock.)
    if (state !== 'pendente') throw conflict(CLOSED, 'transferencia_encerrada');
    const check = await transferRules(tx, row);
    if (!check.allowed) throw conflict(check.reason, 'transferencia_nao_permitida');
    const ids = (await repo.categoriesOf(tx, row.id)).map((c) => c.id);
    // The registration's event, categories and shirt stay; the person is the new runner's own data.
    const { transferencia: _, tamanho_camisa: __, cupom: ___, ...own } = raw;
    const parsed = ParticipantSchema.safeParse({ ...own, evento: row.eventId, categoria_evento: ids });
    if (!parsed.success) throw validationError(zodIssues(parsed.error));
    const p = parsed.data;
    if (p.cpf !== t.toCpf)
      throw badRequest('Esta transferência é para outro CPF.', 'cpf_divergente', {
        cpf: 'Esta transferência é para outro CPF.',
      });
    steps.prepare.checkBirthDate(p.data_nascimento);
    const priced = await priceFor(tx, row, p.data_nascimento, t.feeCents);
    // The categories' age limits on race day; closing registrations by hand does not stop a transfer.
    deps.events.checkEligibility(
      { ...check.event, registrationsClosed: false },
      priced.after.items.map((i) => i.category),
      p.data_nascimento,
    );
    if (p.pcd && !check.event.offersPcd)
      throw badRequest('Este evento não oferece inscrição PCD.', 'pcd_indisponivel', {
        pcd: 'Este evento não oferece inscrição PCD.',
      });
    steps.prepare.checkTerms(check.event, p.termo_versao);
    await steps.manager.check(
      tx,
      row,
      check.event,
      { kind: 'transferencia', to: { userId: input.user.id, cpf: p.cpf, birthDate: p.data_nascimento } },
      ids,
    );
    // The new runner may choose her own shirt size, checked against the stock now and held at payment.
    const wanted = typeof raw.tamanho_camisa === 'number' ? raw.tamanho_camisa : undefined;
    const size = wanted === undefined ? null : await steps.prepare.chosenKitSize(tx, check.event, wanted);
    const draft: RegistrationDraft = {
      ...p,
      ...(size && size.size !== row.kitSize ? { kitSizeId: size.id, kitSize: size.size } : {}),
      items: [],
      totalCents: priced.totalCents,
      senior: priced.after.senior,
      termsAcceptedAt: deps.now().toISOString(),
      transfer: {
        id: t.id,
        registrationId: row.id,
        feeCents: t.feeCents,
        differenceCents: priced.differenceCents,
      },
    };
    return {
      amountCents: priced.totalCents,
      description: `Transferência de inscrição ${check.event.name}`.slice(0, 140),
      draft,
      billingAddress: {
        street: p.street,
        number: 'S/N',
        neighborhood: p.neighborhood,
        zipcode: p.zip_code,
        city: p.city,
        state: p.state,
      },
    };
  }

  /** The charge paying for the transfer is recorded on it (nothing else is held: the place stays). */
  async function reserve(tx: Tx, chargeId: number, draft: RegistrationDraft) {
    const t = draft.transfer ? await transfers.lockTransfer(tx, draft.transfer.id) : null;
    if (t?.status !== 'pendente') throw conflict(CLOSED, 'transferencia_encerrada');
    await transfers.setCharge(tx, t.id, chargeId);
  }

  /**
   * A transfer's Pix paid after its charge ended (docs/decisions/0060, later): the change manager's rules
   * for the new runner asked again, as at the request and the payment (the opening's limits per CPF and
   * per buyer, the CPF free in the categories); the paying account is now known. A refusal is
   * CannotFulfil with its reason, and the payment goes back.
   */
  async function recheck(tx: Tx, charge: ChargeRow) {
    const d = charge.draft as RegistrationDraft;
    const row = d.transfer ? await repo.lockRegistration(tx, d.transfer.registrationId) : null;
    const event = row && (await deps.events.findEventRow(row.eventId, tx));
    // Gone or cancelled meanwhile: `fulfil` says so.
    if (!row || !event || row.cancelledAt) return;
    const ids = (await repo.categoriesOf(tx, row.id)).map((c) => c.id);
    await steps.prepare.lateRefusal(
      steps.manager.check(
        tx,
        row,
        event,
        { kind: 'transferencia', to: { userId: charge.userId, cpf: d.cpf }, late: true },
        ids,
      ),
    );
  }

  /**
   * The paid charge completes the transfer, in the confirming transaction: under the registration's
   * row lock the transfer must still be pending, the registration standing, its kit not picked up and
   * the new CPF free in its categories; otherwise CannotFulfil and the payment goes back. The
   * registration takes the new holder and new nonces (the old QR code is refused at check-in).
   */
  async function fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }> {
    const d = charge.draft as RegistrationDraft;
    const part = d.transfer;
    if (!part) throw new CannotFulfil(CLOSED);
    const row = await repo.lockRegistration(tx, part.registrationId);
    const t = await transfers.lockTransfer(tx, part.id);
    // The refund's reason says what really happened (the payer reads it in the refund's e-mail).
    if (!row || !t) throw new CannotFulfil(CLOSED);
    if (row.cancelledAt) throw new CannotFulfil(LATE.cancelled);
    if (t.status === 'cancelada') throw new CannotFulfil(LATE.withdrawn);
    if (t.status !== 'pendente' || t.expiresAt < charge.createdAt) throw new CannotFulfil(LATE.ended);
    if ((await repo.findCheckins(tx, [row.id])).length > 0) throw new CannotFulfil(LATE.kit);
    if (d.kitSizeId !== undefined && d.kitSize !== row.kitSize) {
      // The size she chose: held on the registration's charge, the old one given back.
      await deps.events.reserveKit(tx, row.chargeId, d.kitSizeId).catch((err: unknown) => {
        if (err instanceof HttpError)
          throw new CannotFulfil('O tamanho de camisa escolhido esgotou antes de o pagamento chegar.');
        throw err;
      });
      const old = (await deps.events.findKitSizes(row.eventId, tx)).find((s) => s.size === row.kitSize);
      if (old) await deps.events.releaseOneKit(tx, row.chargeId, old.id);
      await transfers.setKitSize(tx, row.id, d.kitSize ?? null);
    }
    await repo.lockCpf(tx, d.cpf);
    const ids = (await repo.categoriesOf(tx, row.id)).map((c) => c.id);
    if ((await repo.takenCategories(tx, d.cpf, ids)).length > 0) throw new CannotFulfil(DUPLICATE_CPF);
    await transfers
      .changeHolder(tx, row.id, {
        ...holderColumns(d, deps.now()),
        accountUserId: charge.userId,
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw new CannotFulfil(DUPLICATE_CPF);
        throw err;
      });
    await transfers.endTransfer(tx, t.id, 'concluida', deps.now(), charge.id);
    await afterSale.insertChange(tx, {
      registrationId: row.id,
      kind: 'transferencia',
      actor: t.actor,
      detail: {
        de: row.fullName,
        para: d.nome_completo,
        taxa_cents: part.feeCents,
        diferenca_cents: part.differenceCents,
        cobranca: charge.id,
      },
      feeCents: charge.amountCents,
      refundCents: 0,
      createdAt: deps.now(),
    });
    deps.log.info(
      { registrationId: row.id, transferId: t.id, chargeId: charge.id },
      'registration transferred',
    );
    // The new holder's ticket (new QR code), and the old holder told the registration is no longer theirs.
    await deps.jobs.send('mail.registration-confirmation', { registrationId: row.id }, { tx });
    await deps.jobs.send('mail.registration-transferred', { transferId: t.id }, { tx });
    return { id: row.id };
  }

  /** The transfer a paid charge completed (the registration purpose's fulfilledBy). */
  async function fulfilledBy(db: Db | Tx, chargeId: number) {
    const t = await transfers.findByCharge(db, chargeId);
    return t ? { id: t.registrationId } : null;
  }

  /** The e-mail telling the previous holder their registration now belongs to the new runner. */
  async function sendTransferred(transferId: number): Promise<void> {
    const t = await transfers.findById(deps.db, transferId);
    if (t?.status !== 'concluida') return;
    const row = await repo.findById(deps.db, t.registrationId);
    const event = row && (await deps.events.findEventRow(row.eventId));
    if (!row || !event) return;
    await deps.mail.send(
      transferDoneMail({
        env: deps.env,
        to: { name: t.fromName, email: t.fromEmail },
        registrationId: row.id,
        eventName: event.name,
        newHolder: row,
      }),
    );
  }

  return {
    status,
    request,
    cancelPending,
    invite,
    price,
    prepare,
    recheck,
    reserve,
    fulfil,
    fulfilledBy,
    sendTransferred,
    transferRules,
    /** A transfer asked inside a list of changes (registration-change-list.ts), then announced. */
    requestIn,
    announce,
    newToken,
  };
}

export type Transfer = ReturnType<typeof createTransfer>;
