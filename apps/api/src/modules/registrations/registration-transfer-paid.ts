import { createHash } from 'node:crypto';
import { eventStart, withinDay } from '@passada/core/after-sale';
import { DUPLICATE_CPF, ParticipantSchema } from '@passada/core/contracts/registrations';
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
import { transferDoneMail } from './after-sale-mail.ts';
import { billingAddressOf } from './holder.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import { type ChangeManager, TEAM_PLACE_REFUSAL } from './registration-change-manager.ts';
import { holderColumns } from './registration-confirm.ts';
import type { Prepare } from './registration-prepare.ts';
import type { Pricing } from './registration-price.ts';
import * as transfers from './registration-transfer.repository.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const CLOSED = 'Esta transferência não está mais aberta: peça a quem a enviou que faça uma nova.';

/** Why a transfer's payment that arrived too late is returned. */
export const LATE = {
  cancelled: 'A inscrição foi cancelada antes de o pagamento da transferência chegar.',
  withdrawn: 'A transferência foi cancelada por quem a pediu antes de o pagamento chegar.',
  ended: 'A transferência já tinha expirado ou sido concluída quando o pagamento chegou.',
  kit: 'O kit desta inscrição já tinha sido retirado quando o pagamento chegou.',
};

/**
 * A transfer's payment (docs/decisions/0041, 0060): the registration purpose's prepare (the new
 * runner's data checked by the new sale's steps, the price), reserve (the shirt chosen), recheck (the
 * opening's limits again for a late payment), fulfil (the registration handed over) and the e-mail.
 */
export function createTransferPayment(
  deps: RegistrationsServiceDeps,
  steps: {
    pricing: Pricing;
    prepare: Prepare;
    manager: ChangeManager;
    proofs: Pick<PriceRuleProofs, 'leaveRule'>;
  },
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
    // Said before the runner fills in anyone; the change manager refuses it too.
    if (row.teamBatchId !== null) return refused(TEAM_PLACE_REFUSAL);
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
    // A race priced by a special price's rule (docs/decisions/0068) was the old runner's right, proved by
    // their document: it counts at what it was paid, and the new runner pays up to the lot's price.
    const ruled = new Map(
      (await repo.categoriesWithRules(db, row.id))
        .filter((c) => c.priceRuleId !== null)
        .map((c) => [c.id, c]),
    );
    const beforeItems = before.items.map((i) => ruled.get(i.category.id) ?? i);
    const sum = (items: { priceCents: number }[]) => items.reduce((s, i) => s + i.priceCents, 0);
    // A new runner who loses the 60+ half price pays the difference; one who gains it gets nothing back
    // (the registration was paid by someone else, whose money it stays).
    const differenceCents = Math.max(0, sum(after.items) - sum(beforeItems));
    return { ids, after, differenceCents, totalCents: feeCents + differenceCents };
  }

  /** The transfer of a link's token, its status as of now. */
  async function byToken(db: Db | Tx, token: string) {
    const t = await transfers.findByTokenHash(db, hashToken(token));
    if (!t) throw notFound('Transferência não encontrada.');
    const state = t.status === 'pendente' && t.expiresAt <= deps.now() ? 'expirada' : t.status;
    return { t, state };
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
    // The new runner's own team, if they give its code; the old runner's team stays with them.
    const team = await steps.prepare.joinTeam(tx, row.eventId, p.equipe_codigo);
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
      ...(team ? { team } : {}),
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
      billingAddress: billingAddressOf({ ...p, zipCode: p.zip_code }),
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
    // The special price was the old runner's: the races leave its rule (its place goes back to the
    // rule's cap) and their proof is erased (docs/decisions/0068).
    const ruled = (await repo.categoriesWithRules(tx, row.id)).filter((c) => c.priceRuleId !== null);
    if (ruled.length) await steps.proofs.leaveRule(tx, row, ruled);
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
    transferRules,
    priceFor,
    byToken,
    prepare,
    reserve,
    recheck,
    fulfil,
    fulfilledBy,
    sendTransferred,
  };
}
