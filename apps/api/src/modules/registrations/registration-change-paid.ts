import { DUPLICATE_CPF } from '@passada/core/contracts/registrations';
import { reaisToCents } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import { CannotFulfil, type ChargeRow, isUniqueViolation } from '../payments/payments.service.ts';
import * as afterSale from './after-sale.repository.ts';
import { billingAddressOf } from './holder.ts';
import type { ParticipantLinks } from './participant-link.ts';
import type { Change } from './registration-change.ts';
import type { ChangeManager } from './registration-change-manager.ts';
import { holderRegistration } from './registration-transfer.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationDraft, RegistrationsServiceDeps } from './registrations-context.ts';

/**
 * A change paid by its own charge, in the history (`cobranca`: the charge, its whole amount as paid) and
 * told by e-mail: a dearer distance, a refused special price's difference.
 */
export async function recordPaidChange(
  deps: Pick<RegistrationsServiceDeps, 'jobs' | 'now'>,
  tx: Tx,
  charge: Pick<ChargeRow, 'id' | 'amountCents'>,
  change: {
    registrationId: number;
    kind: 'troca_distancia' | 'diferenca_preco';
    actor: 'comprador' | 'participante';
    detail: Record<string, unknown>;
  },
): Promise<void> {
  const row = await afterSale.insertChange(tx, {
    ...change,
    detail: { ...change.detail, cobranca: charge.id },
    feeCents: charge.amountCents,
    refundCents: 0,
    createdAt: deps.now(),
  });
  await deps.jobs.send('mail.registration-changed', { changeId: row.id }, { tx });
}

const GONE = 'Esta troca não pode mais ser concluída: a inscrição mudou desde que você a pediu.';

/**
 * A change of distance with something to pay (docs/decisions/0041): the registration purpose's
 * prepare (priced and checked by the change's steps), reserve (the new place held for the charge) and
 * fulfil (the registration moved once it is paid, every rule of its own asked again).
 */
export function createChangePayment(
  deps: RegistrationsServiceDeps,
  steps: { change: Change; links: ParticipantLinks; manager: ChangeManager },
) {
  const { quoteFor, swapCategory } = steps.change.parts;

  /**
   * The registration purpose's prepare for a change with something to pay: the account's own
   * registration (`inscricao`), or the one the participant's signed link opens (`link`, its token),
   * paid by whichever account is signed in, as a transfer's new runner pays through theirs.
   */
  async function prepare(tx: Tx, input: { user: AuthUser; draft: unknown }) {
    const part = (
      input.draft as {
        troca_distancia: { inscricao?: unknown; link?: unknown; de?: unknown; para?: unknown };
      }
    ).troca_distancia;
    const { holder, id } = await steps.links.holderOfDraft(tx, input.user, part);
    const [from, to] = [part.de, part.para].map(Number);
    if (![id, from, to].every((n) => Number.isInteger(n) && n! > 0))
      throw badRequest('Escolha a distância nova.', 'validation_error', {
        para: 'Escolha a distância nova.',
      });
    const row = await holderRegistration(tx, holder, id);
    const { quote, priced, event, rules } = await quoteFor(tx, row, from!, to!);
    if (!quote.permitido || !priced) throw conflict(quote.motivo ?? '', 'troca_nao_permitida');
    await steps.manager.check(
      tx,
      row,
      event,
      { kind: 'troca_distancia', from: from!, to: to!, userId: input.user.id },
      [to!],
    );
    deps.events.checkEligibility(
      { ...event, registrationsClosed: false },
      [priced.newItem.category],
      row.birthDate,
    );
    const amountCents = reaisToCents(quote.a_pagar);
    const draft = {
      evento: row.eventId,
      categoria_evento: [to!],
      items: [{ categoryId: to!, priceCents: priced.newItem.priceCents, lotName: priced.newItem.lotName }],
      totalCents: amountCents,
      email: row.email,
      nome_completo: row.fullName,
      change: {
        registrationId: row.id,
        from: from!,
        to: to!,
        feeCents: rules.categoryChangeFeeCents,
        differenceCents: priced.differenceCents,
        by: holder.by,
      },
    } as unknown as RegistrationDraft;
    return {
      amountCents,
      description: `Troca de distância ${event.name}`.slice(0, 140),
      draft,
      billingAddress: billingAddressOf(row),
    };
  }

  /** Holds the new place for the change's charge (409 when the last one went meanwhile). */
  async function reserve(tx: Tx, chargeId: number, draft: RegistrationDraft) {
    if (!draft.change) throw conflict(GONE, 'troca_encerrada');
    const row = await repo.findById(tx, draft.change.registrationId);
    if (!row || row.cancelledAt) throw conflict(GONE, 'troca_encerrada');
    await steps.manager.takePlace(tx, chargeId, row, draft.change.to);
  }

  /**
   * The paid change, in the confirming transaction: the registration must still hold `from`, stand,
   * and its kit wait; the new place held by this charge moves to the registration's charge.
   */
  async function fulfil(tx: Tx, charge: ChargeRow): Promise<{ id: number }> {
    const d = charge.draft as RegistrationDraft;
    const part = d.change;
    if (!part) throw new CannotFulfil(GONE);
    const row = await repo.lockRegistration(tx, part.registrationId);
    if (!row || row.cancelledAt) throw new CannotFulfil(GONE);
    const held = await repo.categoriesOf(tx, row.id);
    if (!held.some((c) => c.id === part.from) || held.some((c) => c.id === part.to))
      throw new CannotFulfil(GONE);
    if ((await repo.findCheckins(tx, [row.id])).length > 0) throw new CannotFulfil(GONE);
    await repo.lockCpf(tx, row.cpf);
    if ((await repo.takenCategories(tx, row.cpf, [part.to])).length > 0)
      throw new CannotFulfil(DUPLICATE_CPF);
    const item = d.items[0]!;
    await swapCategory(tx, row, part.from, {
      categoryId: part.to,
      priceCents: item.priceCents,
      lotName: item.lotName ?? null,
    }).catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new CannotFulfil(DUPLICATE_CPF);
      throw err;
    });
    await deps.events.moveReservations(tx, charge.id, row.chargeId);
    await recordPaidChange(deps, tx, charge, {
      registrationId: row.id,
      kind: 'troca_distancia',
      actor: part.by ?? 'comprador',
      detail: {
        de: part.from,
        para: part.to,
        para_nome: (await repo.categoriesOf(tx, row.id)).find((c) => c.id === part.to)?.name,
        diferenca_cents: part.differenceCents,
      },
    });
    return { id: row.id };
  }

  /** The registration a paid change charge changed (the registration purpose's fulfilledBy). */
  const fulfilledBy = (db: Db | Tx, chargeId: number) =>
    afterSale.registrationOfChangeCharge(db, 'troca_distancia', chargeId);

  return { prepare, reserve, fulfil, fulfilledBy };
}
