import { eventStart, withinDay } from '@passada/core/after-sale';
import type { ChangeQuote } from '@passada/core/contracts/after-sale';
import { KIT_SIZE_SOLD_OUT } from '@passada/core/contracts/registrations';
import { centsToReais, reaisToCents } from '@passada/core/money';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrationCategories, registrations } from '../../db/schema/index.ts';
import { badRequest, conflict, HttpError, notFound } from '../../plugins/errors.ts';
import * as afterSale from './after-sale.repository.ts';
import { registrationChangedMail } from './after-sale-mail.ts';
import type { ParticipantLinks } from './participant-link.ts';
import type { PriceRuleProofs } from './price-rule-proofs.ts';
import type { ChangeManager } from './registration-change-manager.ts';
import type { Prepare } from './registration-prepare.ts';
import type { Pricing } from './registration-price.ts';
import { type Holder, holderRegistration } from './registration-transfer.ts';
import * as repo from './registrations.repository.ts';
import { kitPickedUp } from './registrations-admin.ts';
import type { RegistrationsServiceDeps } from './registrations-context.ts';
import { giveWave } from './start-waves.ts';

/** What a charge paying for a change of distance carries (docs/decisions/0041). */
export interface ChangeDraftPart {
  registrationId: number;
  from: number;
  to: number;
  feeCents: number;
  differenceCents: number;
  /** Who asked: the buying account, or the participant through their link. */
  by?: 'comprador' | 'participante';
}

/** What a change of distance of a race priced by a special price says before it is confirmed. */
export const RULE_LOST =
  'O preço especial vale só na distância em que foi concedido: na nova distância vale o preço do lote, e a diferença é contada do que você pagou.';

/** A registration draft that pays for a change of distance (`troca_distancia` on the wire). */
export const isChangeDraft = (draft: unknown): boolean =>
  typeof (draft as { troca_distancia?: unknown } | null)?.troca_distancia === 'object' ||
  typeof (draft as { change?: unknown } | null)?.change === 'object';

/**
 * Changes of distance (category) and of shirt size after the sale (docs/decisions/0041), within the
 * event's rules. Each runs the steps of a new registration: the price of the lot in force and the
 * 60+ half price (`priceChoice`, which also holds the one-category-per-day rule), the categories' age
 * limits, the CPF free in the new category, the places and shirts held by the events module's
 * conditional updates (the old one given back in the same transaction). The difference and the fee are
 * paid by a 'registration' charge, or a cheaper distance returns the difference through `refundPart`
 * when the organiser chose so.
 */
export function createChange(
  deps: RegistrationsServiceDeps,
  steps: {
    pricing: Pricing;
    prepare: Prepare;
    links: ParticipantLinks;
    manager: ChangeManager;
    proofs: Pick<PriceRuleProofs, 'detach'>;
  },
) {
  async function rulesFor(db: Db | Tx, row: repo.RegistrationRow, kind: 'distancia' | 'tamanho') {
    const event = await deps.events.findEventRow(row.eventId, db);
    if (!event) throw notFound('Evento não encontrado.');
    const { rules } = await afterSale.findRules(db, row.eventId);
    const allowed = kind === 'distancia' ? rules.categoryChangeAllowed : rules.sizeChangeAllowed;
    const until = kind === 'distancia' ? rules.categoryChangeUntil : rules.sizeChangeUntil;
    const what = kind === 'distancia' ? 'de distância' : 'do tamanho da camisa';
    const now = deps.now();
    let reason: string | null = null;
    if (row.cancelledAt) reason = 'Esta inscrição foi cancelada.';
    else if (!allowed) reason = `Este evento não permite troca ${what}.`;
    else if (now.getTime() >= eventStart(event.startDate, event.time).getTime())
      reason = 'O evento já começou.';
    else if (!withinDay(until, event.registrationDeadline, now))
      reason = `O prazo de troca ${what} terminou.`;
    return { event, rules, reason };
  }

  /**
   * The price of moving from category `from` to `to`: both at the lot in force for the holder's birth
   * date; the fee plus the difference is due, or (a cheaper distance, when the rules say so) returned,
   * never more than was paid for the category left.
   */
  async function priceChange(db: Db | Tx, row: repo.RegistrationRow, from: number, to: number) {
    const held = await repo.categoriesOf(db, row.id);
    const left = held.find((c) => c.id === from);
    if (!left)
      throw badRequest('Esta inscrição não está nesta categoria.', 'categoria_invalida', {
        de: 'Esta inscrição não está nesta categoria.',
      });
    if (held.some((c) => c.id === to))
      throw conflict('A inscrição já está nesta categoria.', 'mesma_categoria');
    const ids = held.map((c) => (c.id === from ? to : c.id));
    // Same event, one category per day, the lot in force and the 60+ half price: the price step's rules.
    const after = await steps.pricing.priceChoice(db, row.eventId, ids, row.birthDate);
    const before = await steps.pricing.priceChoice(db, row.eventId, [from], row.birthDate);
    const newItem = after.items.find((i) => i.category.id === to)!;
    // A special price (docs/decisions/0068) was granted for the distance left, on its proof: the new
    // distance is at its lot's price, and the difference counts from what the old one was paid.
    const ruled = (await repo.categoriesWithRules(db, row.id)).find(
      (c) => c.id === from && c.priceRuleId !== null,
    );
    const differenceCents = newItem.priceCents - (ruled?.priceCents ?? before.items[0]!.priceCents);
    return { after, newItem, differenceCents, leavesRule: ruled?.priceRuleId ?? null };
  }

  async function quoteFor(db: Db | Tx, row: repo.RegistrationRow, from: number, to: number) {
    const { event, rules, reason } = await rulesFor(db, row, 'distancia');
    const refused = (motivo: string): ChangeQuote => ({
      permitido: false,
      motivo,
      taxa: centsToReais(rules.categoryChangeFeeCents),
      diferenca: 0,
      a_pagar: 0,
      a_devolver: 0,
    });
    if (reason) return { quote: refused(reason), event, rules, priced: null };
    const priced = await priceChange(db, row, from, to);
    // The places the public may take: those held for the waitlist's offers are not this runner's.
    if ((await steps.manager.publicLeft(db, priced.newItem.category)) <= 0)
      return {
        quote: refused(`Categoria esgotada: ${priced.newItem.category.name}.`),
        event,
        rules,
        priced: null,
      };
    const due = rules.categoryChangeFeeCents + priced.differenceCents;
    // Never more back than was paid for the category left (its coupon's share out), nor than is left.
    const money = await steps.manager.cheaperDistance(db, row, {
      from,
      differenceCents: priced.differenceCents,
      feeCents: rules.categoryChangeFeeCents,
      refundsDifference: rules.categoryChangeRefundsDifference,
    });
    const back = money.backCents;
    return {
      quote: {
        permitido: true,
        motivo: null,
        taxa: centsToReais(rules.categoryChangeFeeCents),
        diferenca: centsToReais(priced.differenceCents),
        a_pagar: centsToReais(Math.max(0, due)),
        a_devolver: centsToReais(back),
        ...(priced.leavesRule === null ? {} : { aviso: RULE_LOST }),
      } satisfies ChangeQuote,
      event,
      rules,
      priced,
      money,
    };
  }

  /** GET /api/inscricoes/{id}/troca-distancia/?de=&para=: what the change costs or returns now. */
  async function quoteCategory(holder: Holder, id: number, from: number, to: number): Promise<ChangeQuote> {
    return deps.db.transaction(async (tx) => {
      const row = await holderRegistration(tx, holder, id);
      const { quote, event } = await quoteFor(tx, row, from, to);
      if (!quote.permitido) return quote;
      // The new sale's rules the change manager runs (the lottery's category, the CPF free): the quote
      // says the refusal the confirmation would answer.
      try {
        const op = { kind: 'troca_distancia' as const, from, to, userId: null };
        await steps.manager.check(tx, row, event, op, [to]);
      } catch (err) {
        if (!(err instanceof HttpError) || err.statusCode !== 409) throw err;
        return { ...quote, permitido: false, motivo: err.detail, a_pagar: 0, a_devolver: 0 };
      }
      return quote;
    });
  }

  /** The registration's category `from` becomes `to`, its place given back and the new one moved in. */
  async function swapCategory(
    tx: Tx,
    row: repo.RegistrationRow,
    from: number,
    item: { categoryId: number; priceCents: number; lotName: string | null },
  ) {
    // The new race is at its lot's price: a special price stays with the race it was granted for.
    const moved = await tx
      .update(registrationCategories)
      .set({
        categoryId: item.categoryId,
        priceCents: item.priceCents,
        lotName: item.lotName,
        priceRuleId: null,
      })
      .where(
        and(eq(registrationCategories.registrationId, row.id), eq(registrationCategories.categoryId, from)),
      )
      .returning({ id: registrationCategories.id, estimate: registrationCategories.estimatedSeconds });
    // The old race's wave is left (its slot frees) and the new race's is given by the same estimate.
    for (const entry of moved)
      await giveWave(tx, deps.events.waves, { id: entry.id, categoryId: item.categoryId }, entry.estimate);
    // The place left goes back to the category (a cart's charge may hold several: just one of them),
    // and with it the special price's place to its rule's cap.
    await deps.events.releaseOnePlace(tx, row.chargeId, from);
    // No race left under a rule: the proof has nothing left to prove, and its file goes.
    if (!(await repo.categoriesWithRules(tx, row.id)).some((c) => c.priceRuleId !== null))
      await steps.proofs.detach(tx, row.id);
  }

  /**
   * The registration moved from category `from` to `to` under its row lock, by the change manager's
   * rules of a new sale (the CPF free, the draw's category rule, the category's age limits, the place
   * taken with the waitlist's held offers): a picked-up kit refuses it.
   */
  async function moveCategory(
    tx: Tx,
    row: repo.RegistrationRow,
    event: Awaited<ReturnType<typeof rulesFor>>['event'],
    input: {
      from: number;
      to: number;
      newItem: Awaited<ReturnType<typeof priceChange>>['newItem'];
      userId: number | null;
    },
    /** `held`: the new place is already held by the charge that paid for it (a paid list). */
    opts?: { held: boolean },
  ) {
    await kitPickedUp(tx, [row.id], 'a distância não pode mais ser trocada');
    await steps.manager.check(
      tx,
      row,
      event,
      { kind: 'troca_distancia', from: input.from, to: input.to, userId: input.userId },
      [input.to],
    );
    deps.events.checkEligibility(
      { ...event, registrationsClosed: false },
      [input.newItem.category],
      row.birthDate,
    );
    if (!opts?.held) await steps.manager.takePlace(tx, row.chargeId, row, input.to);
    await swapCategory(tx, row, input.from, {
      categoryId: input.to,
      priceCents: input.newItem.priceCents,
      lotName: input.newItem.lotName,
    });
  }

  /**
   * POST /api/inscricoes/{id}/trocar-distancia/ when nothing is due: under the registration's row lock
   * the quote is priced again and must be the one shown (409 `valor_divergente`); the new place is held
   * for the registration's charge (409 when the last one went), the old one given back, any difference
   * the rules return refunded after commit. A change with something to pay goes through a charge.
   */
  async function changeCategory(
    holder: Holder,
    id: number,
    input: { de: number; para: number; a_devolver: number },
  ): Promise<ChangeQuote> {
    const done = await deps.db.transaction(async (tx) => {
      const row = await holderRegistration(tx, holder, id, 'lock');
      const { quote, priced, event, money } = await quoteFor(tx, row, input.de, input.para);
      if (!quote.permitido || !priced || !money) throw conflict(quote.motivo ?? '', 'troca_nao_permitida');
      if (quote.a_pagar > 0)
        throw new HttpError(
          409,
          'Esta troca tem valor a pagar: pague-o para concluí-la.',
          'pagamento_necessario',
          undefined,
          { a_pagar: quote.a_pagar },
        );
      if (reaisToCents(quote.a_devolver) !== reaisToCents(input.a_devolver))
        throw new HttpError(
          409,
          'O valor mudou desde que você abriu esta página. Confira o novo valor e confirme de novo.',
          'valor_divergente',
          undefined,
          { a_devolver: quote.a_devolver },
        );
      await moveCategory(tx, row, event, {
        from: input.de,
        to: input.para,
        newItem: priced.newItem,
        userId: holder.by === 'comprador' ? holder.user.id : null,
      });
      const backCents = reaisToCents(quote.a_devolver);
      const refund =
        backCents > 0
          ? await deps.payments.refundPart(tx, row.chargeId, {
              refundId: `troca${id}x${input.de}x${input.para}x${deps.now().getTime()}`.slice(0, 35),
              amountCents: backCents,
              reason: 'Troca de distância: diferença devolvida.',
            })
          : null;
      const change = await afterSale.insertChange(tx, {
        registrationId: id,
        kind: 'troca_distancia',
        actor: holder.by,
        detail: {
          de: input.de,
          para: input.para,
          para_nome: priced.newItem.category.name,
          diferenca_cents: priced.differenceCents,
        },
        // Nothing was paid here: the fee is only what the difference covered (kept, not paid).
        feeCents: money.keptCents,
        refundCents: refund?.amountCents ?? 0,
        createdAt: deps.now(),
      });
      await deps.jobs.send('mail.registration-changed', { changeId: change.id }, { tx });
      return { refund, quote };
    });
    if (done.refund) await deps.payments.sendRefund(done.refund);
    return done.quote;
  }

  /**
   * POST /api/inscricoes/{id}/trocar-tamanho/: within the rules, the new size held for the
   * registration's charge (409 `tamanho_esgotado` when the last one went), the old one given back, in
   * one transaction under the registration's row lock.
   */
  async function changeSize(holder: Holder, id: number, sizeId: number): Promise<{ tamanho_camisa: string }> {
    return deps.db.transaction(async (tx) => {
      const row = await holderRegistration(tx, holder, id, 'lock');
      const { event, reason } = await rulesFor(tx, row, 'tamanho');
      if (reason) throw conflict(reason, 'troca_nao_permitida');
      return moveSize(tx, row, event, sizeId, holder.by);
    });
  }

  /**
   * The new size held for the registration's charge (409 `tamanho_esgotado` when the last one went),
   * the old one given back, the history written and the e-mail queued; a picked-up kit refuses it.
   */
  async function moveSize(
    tx: Tx,
    row: repo.RegistrationRow,
    event: Awaited<ReturnType<typeof rulesFor>>['event'],
    sizeId: number,
    actor: 'comprador' | 'participante' | 'loja',
    /** The new size's shirt already held by a paid list's charge (moved to the registration's by it). */
    opts?: { held?: boolean },
  ): Promise<{ tamanho_camisa: string }> {
    await kitPickedUp(tx, [row.id], 'o tamanho da camisa não pode mais ser trocado');
    // A held shirt is already out of the stock left: only the size itself is looked up.
    const sizes = await deps.events.findKitSizes(event.id, tx);
    const size = opts?.held
      ? (sizes.find((s) => s.id === sizeId) ?? null)
      : await steps.prepare.chosenKitSize(tx, event, sizeId);
    if (!size) throw badRequest('Este evento não tem camisa no kit.', 'tamanho_invalido');
    if (size.size === row.kitSize) throw conflict('A inscrição já está com este tamanho.', 'mesmo_tamanho');
    const old = sizes.find((s) => s.size === row.kitSize);
    if (!opts?.held)
      await deps.events.reserveKit(tx, row.chargeId, size.id).catch((err: unknown) => {
        if (err instanceof HttpError) throw conflict(KIT_SIZE_SOLD_OUT, 'tamanho_esgotado');
        throw err;
      });
    if (old) await deps.events.releaseOneKit(tx, row.chargeId, old.id);
    await tx.update(registrations).set({ kitSize: size.size }).where(eq(registrations.id, row.id));
    const change = await afterSale.insertChange(tx, {
      registrationId: row.id,
      kind: 'troca_tamanho',
      actor,
      detail: { de: row.kitSize, para: size.size },
      feeCents: 0,
      refundCents: 0,
      createdAt: deps.now(),
    });
    await deps.jobs.send('mail.registration-changed', { changeId: change.id }, { tx });
    return { tamanho_camisa: size.size };
  }

  /**
   * Staff change a registration in the back office (docs/decisions/0060), in the caller's (audited)
   * transaction under the registration's row lock: the distance (`para` replacing `de`) and/or the
   * shirt size, through the same steps as the runner's change — the change manager's rules of a new
   * sale, places and shirts held, a picked-up kit refused — but not the organiser's after-sale switches
   * and deadlines, which bind runners, not staff. No money moves: staff settle a difference apart.
   * Answers what it was and what it is, for the audit log.
   */
  async function staffChange(
    tx: Tx,
    id: number,
    input: { de?: number; para?: number; tamanho_camisa?: number },
  ) {
    const row = await repo.lockRegistration(tx, id);
    if (!row) throw notFound('Inscrição não encontrada.');
    if (row.cancelledAt) throw conflict('Esta inscrição foi cancelada.', 'inscricao_cancelada');
    const event = await deps.events.findEventRow(row.eventId, tx);
    if (!event) throw notFound('Evento não encontrado.');
    const before = {
      categorias: (await repo.categoriesOf(tx, id)).map((c) => c.id),
      tamanho_camisa: row.kitSize,
    };
    if (input.de !== undefined && input.para !== undefined) {
      const priced = await priceChange(tx, row, input.de, input.para);
      await moveCategory(tx, row, event, {
        from: input.de,
        to: input.para,
        newItem: priced.newItem,
        userId: row.accountUserId,
      });
      const change = await afterSale.insertChange(tx, {
        registrationId: id,
        kind: 'troca_distancia',
        actor: 'loja',
        detail: {
          de: input.de,
          para: input.para,
          para_nome: priced.newItem.category.name,
          diferenca_cents: priced.differenceCents,
        },
        feeCents: 0,
        refundCents: 0,
        createdAt: deps.now(),
      });
      await deps.jobs.send('mail.registration-changed', { changeId: change.id }, { tx });
    }
    if (input.tamanho_camisa !== undefined)
      await moveSize(tx, (await repo.findById(tx, id))!, event, input.tamanho_camisa, 'loja');
    const after = {
      categorias: (await repo.categoriesOf(tx, id)).map((c) => c.id),
      tamanho_camisa: (await repo.findById(tx, id))!.kitSize,
    };
    return { before, after };
  }

  /**
   * The e-mail of one change of distance or shirt size (the `mail.registration-changed` job): the
   * participant, and the buying account when it is someone else's address.
   */
  async function sendChanged(changeId: number): Promise<void> {
    const change = await afterSale.findChange(deps.db, changeId);
    const row = change && (await repo.findById(deps.db, change.registrationId));
    const event = row && (await deps.events.findEventRow(row.eventId));
    if (!change || !row || !event) return;
    const account = row.accountUserId === null ? null : await deps.users.findContact(row.accountUserId);
    const to = [{ name: row.fullName, email: row.email }];
    if (account && account.email.toLowerCase() !== row.email.toLowerCase())
      to.push({ name: account.fullName, email: account.email });
    for (const person of to)
      await deps.mail.send(
        registrationChangedMail({
          env: deps.env,
          to: person,
          registration: row,
          eventName: event.name,
          change,
        }),
      );
  }

  return {
    quoteCategory,
    changeCategory,
    changeSize,
    staffChange,
    sendChanged,
    /** The steps a list of changes runs in order (registration-change-list.ts). */
    parts: { rulesFor, quoteFor, priceChange, moveCategory, moveSize, swapCategory },
  };
}

export type Change = ReturnType<typeof createChange>;
