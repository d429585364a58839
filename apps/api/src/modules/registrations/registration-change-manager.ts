import { publicPlacesLeft } from '@passada/core/events';
import type { Db, Tx } from '../../db/client.ts';
import { conflict } from '../../plugins/errors.ts';
import type { EventRow } from '../events/events.service.ts';
import type { Hold } from './registration-hold.ts';
import { paidParts } from './registration-paid.ts';
import type { Prepare } from './registration-prepare.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import { countsOf } from './waitlist.repository.ts';

/**
 * One change to a sold registration (docs/decisions/0056). `userId` is the account that will hold
 * (transfer) or that asks (the others); a transfer's account is unknown until the new runner pays.
 */
export type RegistrationOperation =
  | {
      kind: 'transferencia';
      to: { userId: number | null; cpf: string; birthDate?: string };
      /** Its payment came after its charge ended: the opening's limits again, not the turn (0060). */
      late?: boolean;
    }
  | { kind: 'troca_distancia'; from: number; to: number; userId: number | null }
  | { kind: 'troca_tamanho'; sizeId: number }
  | { kind: 'cancelamento' };

/** Why a team's prepaid place changes runner or distance only through the team (docs/decisions/0073). */
export const TEAM_PLACE_REFUSAL =
  'Esta vaga foi paga pela equipe: para trocar de corredor ou de distância, fale com o capitão.';

/** What a cheaper distance returns and keeps, within what was paid for the category left. */
export interface ChangeMoney {
  /** Returned to the runner: never above what the category left was paid, nor what its charge has left. */
  backCents: number;
  /** The fee that stayed with the shop out of the difference (nothing when nothing came back). */
  keptCents: number;
}

/**
 * The change manager: the one place that decides whether a change to a sold registration may happen,
 * the way a new sale is decided. Each operation runs, in the caller's transaction and under the
 * registration's row lock, the new sale's named steps (registration-prepare.ts, registration-hold.ts)
 * that govern it — the opening's gate and the lottery's result, the CPF free in the categories, the
 * categories' age limits, places (with the waitlist's held offers) and shirts — and prices the money
 * from what was really paid. The runner's routes, the participant's link, the payments' purpose and
 * the back office all call it; a rule added to the new sale's steps is added here once.
 */
export function createChangeManager(
  deps: RegistrationsServiceDeps,
  steps: { prepare: Prepare; hold: Pick<Hold, 'holdPlaces'> },
) {
  /**
   * Every rule of a new sale that holds for `op` on `row` (the places are taken by `takePlace`, the
   * shirt by the caller's `reserveKit`, both at the moment they are held).
   */
  async function check(
    tx: Tx,
    row: repo.RegistrationRow,
    event: EventRow,
    op: RegistrationOperation,
    categoryIds: readonly number[],
  ): Promise<void> {
    // A team's prepaid place (docs/decisions/0073) is the team's: it goes to another runner or another
    // distance only through the team (cancel it, and the captain's link gives it to someone else).
    if (row.teamBatchId !== null && (op.kind === 'transferencia' || op.kind === 'troca_distancia'))
      throw conflict(TEAM_PLACE_REFUSAL, 'vaga_de_equipe');
    switch (op.kind) {
      case 'transferencia':
        // A lottery's place is the drawn CPF's: only another CPF drawn in that category may take it; a
        // waiting room's limits per CPF and per buyer count the new runner and the paying account.
        await steps.prepare.checkOpening(
          tx,
          event,
          { userId: op.to.userId ?? 0, cpf: op.to.cpf, categoryIds, ...(op.late ? { late: true } : {}) },
          'transferencia',
          row,
        );
        await steps.prepare.checkCpfFree(tx, op.to.cpf, [...categoryIds]);
        if (op.to.birthDate) steps.prepare.checkBirthDate(op.to.birthDate);
        return;
      case 'troca_distancia':
        // The draw's category rule: a drawn place stays in the category drawn.
        await steps.prepare.checkOpening(
          tx,
          event,
          { userId: op.userId ?? row.accountUserId ?? 0, cpf: row.cpf, categoryIds: [op.to] },
          'troca_distancia',
        );
        await steps.prepare.checkCpfFree(tx, row.cpf, [op.to]);
        return;
      case 'troca_tamanho':
      case 'cancelamento':
        return;
    }
  }

  /**
   * The new category's place taken for `chargeId` by the hold step of a new sale: 409 `esgotado` when
   * none is left or the places left are held for the waitlist's offers (or someone waits in line).
   */
  async function takePlace(tx: Tx, chargeId: number, row: repo.RegistrationRow, categoryId: number) {
    await steps.hold.holdPlaces(tx, chargeId, {
      cpf: row.cpf,
      evento: row.eventId,
      items: [{ categoryId }],
    });
  }

  /** What the public may take of a category now: left less the waitlist's offers, nothing while some wait. */
  async function publicLeft(db: Db | Tx, category: { id: number; placesLeft: number }) {
    return publicPlacesLeft(
      category.placesLeft,
      (await countsOf(db, [category.id], deps.now())).get(category.id),
    );
  }

  /**
   * What the category `categoryId` of the registration was paid: its price less its share of the
   * coupon (proportional to the prices, the share rounded up so the money back is never above it),
   * within what its own charge still has to give back.
   */
  async function paidFor(db: Db | Tx, row: repo.RegistrationRow, categoryId: number): Promise<number> {
    const held = await repo.categoriesOf(db, row.id);
    const total = held.reduce((s, c) => s + c.priceCents, 0);
    const category = held.find((c) => c.id === categoryId);
    if (!category || total <= 0) return 0;
    const couponShare = Math.ceil((row.discountCents * category.priceCents) / total);
    const own = (await paidParts(deps, db, row)).find((p) => p.own);
    return Math.max(0, Math.min(category.priceCents - couponShare, own?.leftCents ?? 0));
  }

  /**
   * A cheaper distance: the difference less the fee comes back when the rules say so, never above what
   * was paid for the category left (a coupon's registration, a free one: less or nothing), and the fee
   * kept is only what the difference really covered.
   */
  async function cheaperDistance(
    db: Db | Tx,
    row: repo.RegistrationRow,
    input: { from: number; differenceCents: number; feeCents: number; refundsDifference: boolean },
  ): Promise<ChangeMoney> {
    if (input.differenceCents + input.feeCents > 0 || !input.refundsDifference)
      return { backCents: 0, keptCents: 0 };
    const returnable = Math.min(-input.differenceCents, await paidFor(db, row, input.from));
    const keptCents = Math.min(input.feeCents, returnable);
    return { backCents: returnable - keptCents, keptCents };
  }

  /** The registration must still stand (any operation). */
  function standing(row: repo.RegistrationRow) {
    if (row.cancelledAt) throw conflict('Esta inscrição foi cancelada.', 'inscricao_cancelada');
  }

  return { check, takePlace, publicLeft, paidFor, cheaperDistance, standing };
}

export type ChangeManager = ReturnType<typeof createChangeManager>;
