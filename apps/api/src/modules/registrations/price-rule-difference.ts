import { eventStart } from '@passada/core/after-sale';
import type { RuleDifferenceQuote } from '@passada/core/contracts/price-rules';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import { CannotFulfil, type ChargeRow } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import { billingAddressOf } from './holder.ts';
import type { ParticipantLinks } from './participant-link.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import { recordPaidChange } from './registration-change-paid.ts';
import { type Holder, holderRegistration } from './registration-transfer.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';

const GONE = 'A diferença não pode mais ser paga: a inscrição mudou desde que você abriu esta página.';

/** A registration draft that pays a refused special price's difference (`diferenca_preco` on the wire). */
export const isRuleDifferenceDraft = (draft: unknown): boolean => {
  const part = (draft as { diferenca_preco?: unknown } | null)?.diferenca_preco;
  return typeof part === 'object' && part !== null;
};

/**
 * After staff refuse a special price's proof (docs/decisions/0068), the runner keeps the place by paying
 * the difference to the lot's price, through a charge of the registration purpose, as a dearer change
 * of distance is paid: the registration's races leave the rule (its place goes back to the rule's cap),
 * the proof is let go and the history says what was paid. The other way out is the runner's own
 * cancellation with everything back (registration-runner.ts).
 */
export function createRuleDifference(
  deps: RegistrationsServiceDeps,
  steps: {
    links: ParticipantLinks;
    proofs: Pick<PriceRuleProofs, 'leaveRule' | 'statusOf' | 'differenceNow'>;
  },
) {
  /**
   * What is owed now: each race still under a rule, at its lot in force less what it was paid; a reason
   * when nothing may be paid (cancelled, started, the proof not refused).
   */
  async function owed(db: Db | Tx, row: repo.RegistrationRow) {
    const { ruled, proof, rule } = await refusedRule(db, row);
    const nothing = (reason: string) => ({ reason, cents: 0, rule, proof });
    if (row.cancelledAt) return nothing('Esta inscrição foi cancelada.');
    const event = await deps.events.findEventRow(row.eventId, db);
    if (!event || deps.now().getTime() >= eventStart(event.startDate, event.time).getTime())
      return nothing('O evento já começou.');
    if (!rule) return nothing('Não há diferença a pagar: esta inscrição não tem comprovante recusado.');
    const cents = await steps.proofs.differenceNow(db, ruled);
    if (cents <= 0) return nothing('Não há diferença a pagar: o preço do lote é o mesmo.');
    return { reason: null, cents, rule, proof };
  }

  /**
   * The registration's races still under a rule and its proof; `rule` (its name) only while the proof
   * stands refused, the one state a difference may be paid in.
   */
  async function refusedRule(db: Db | Tx, row: repo.RegistrationRow) {
    const ruled = (await repo.categoriesWithRules(db, row.id)).filter((c) => c.priceRuleId !== null);
    const ruleId = ruled[0]?.priceRuleId;
    if (!ruleId) return { ruled, proof: undefined, rule: undefined };
    const proof = (await steps.proofs.statusOf(db, [row.id])).get(row.id);
    if (proof?.status !== 'recusado') return { ruled, proof, rule: undefined };
    const names = await deps.events.priceRules.names(db, [ruleId]);
    return { ruled, proof, rule: names.get(ruleId) ?? { name: 'Preço especial' } };
  }

  /** GET …/diferenca-preco/: what keeping the registration at its lot's price costs now. */
  async function quote(holder: Holder, id: number): Promise<RuleDifferenceQuote> {
    const row = await holderRegistration(deps.db, holder, id);
    const o = await owed(deps.db, row);
    return {
      permitido: o.reason === null,
      motivo: o.reason,
      regra: o.rule?.name ?? null,
      motivo_recusa: o.proof?.status === 'recusado' ? o.proof.reason : null,
      a_pagar: centsToReais(o.cents),
    };
  }

  /**
   * The registration purpose's prepare: the account's own registration (`inscricao`) or the one a
   * participant's link opens (`link`), under its row lock, priced now by the server.
   */
  async function prepare(tx: Tx, input: { user: AuthUser; draft: unknown }) {
    const part = (input.draft as { diferenca_preco: { inscricao?: unknown; link?: unknown } })
      .diferenca_preco;
    const { holder, id } = await steps.links.holderOfDraft(tx, input.user, part);
    if (!Number.isInteger(id) || id <= 0)
      throw badRequest('Informe a inscrição.', 'validation_error', { inscricao: 'Informe a inscrição.' });
    const row = await holderRegistration(tx, holder, id, 'lock');
    const o = await owed(tx, row);
    if (o.reason !== null) throw conflict(o.reason, 'diferenca_indisponivel');
    const draft = {
      evento: row.eventId,
      categoria_evento: [],
      items: [],
      totalCents: o.cents,
      email: row.email,
      nome_completo: row.fullName,
      ruleDifference: { registrationId: row.id, differenceCents: o.cents, by: holder.by },
    } as unknown as RegistrationDraft;
    return {
      amountCents: o.cents,
      description: `Diferença do preço especial, inscrição ${row.id}`.slice(0, 140),
      draft,
      billingAddress: billingAddressOf(row),
    };
  }

  /** No place is held: the registration must only still stand when the charge is made. */
  async function reserve(tx: Tx, _chargeId: number, draft: RegistrationDraft) {
    const row = draft.ruleDifference && (await repo.findById(tx, draft.ruleDifference.registrationId));
    if (!row || row.cancelledAt) throw conflict(GONE, 'diferenca_indisponivel');
  }

  /**
   * The difference paid, in the confirming transaction under the registration's row lock: it must still
   * stand with its races under the refused rule (a payment that comes after a cancellation, a transfer
   * or a second payment is refunded whole by the payments module). The races leave the rule and its cap
   * gets the place back; the proof is let go and its file erased after the commit.
   */
  async function fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }> {
    const part = (charge.draft as RegistrationDraft).ruleDifference;
    if (!part) throw new CannotFulfil(GONE);
    const row = await repo.lockRegistration(tx, part.registrationId);
    if (!row || row.cancelledAt) throw new CannotFulfil(GONE);
    const { ruled, rule } = await refusedRule(tx, row);
    if (!rule) throw new CannotFulfil(GONE);
    await steps.proofs.leaveRule(tx, row, ruled);
    await recordPaidChange(deps, tx, charge, {
      registrationId: row.id,
      kind: 'diferenca_preco',
      actor: part.by,
      detail: { regra: rule.name, diferenca_cents: charge.amountCents },
    });
    return { id: row.id };
  }

  /** The registration a paid difference's charge settled (the purpose's fulfilledBy). */
  const fulfilledBy = (db: Db | Tx, chargeId: number) =>
    afterSale.registrationOfChangeCharge(db, 'diferenca_preco', chargeId);

  return { quote, prepare, reserve, fulfil, fulfilledBy };
}

export type RuleDifference = ReturnType<typeof createRuleDifference>;
