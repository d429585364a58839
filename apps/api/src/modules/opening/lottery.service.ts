import { dateInTimeZone, formatStoreDateTime, STORE_TIME_ZONE } from '@passada/core/calendar';
import type { LotteryEntryInput, LotterySettings } from '@passada/core/contracts/lottery';
import { isRegistrationOpen } from '@passada/core/events';
import type { Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import * as repo from './lottery.repository.ts';
import { type LotteryServiceDeps, toWire, winnersByCpf } from './lottery-context.ts';
import { createLotteryDraw } from './lottery-draw.ts';
import { createLotteryGate } from './lottery-gate.ts';
import { type LotteryMailKind, lotteryMail } from './lottery-mail.ts';
import { createLotteryViews } from './lottery-views.ts';
import { findOpening, lockLimits } from './opening.repository.ts';

export type { LotteryServiceDeps } from './lottery-context.ts';
export { ENTRIES_PAGE_SIZE } from './lottery-views.ts';

/**
 * The lottery opening (docs/decisions/0051-lottery-opening.md): entries in a window, a commitment to a
 * secret seed published before it closes, the draw (lottery.ts) and further draws for places left
 * unpaid, and the registrations' gate that lets only winners within their deadline pay. Its parts are
 * in their files (lottery-views.ts, lottery-draw.ts, lottery-gate.ts, sharing lottery-context.ts).
 */
export function createLotteryService(deps: LotteryServiceDeps) {
  const pageOf = (eventId: number) => `${deps.env.publicUrl}/eventos/register/${eventId}`;
  const views = createLotteryViews(deps);
  const { commit, draw } = createLotteryDraw(deps);
  const gate = createLotteryGate(deps);

  /** Saves the lottery's settings with the opening (in the opening's save transaction). */
  async function save(tx: Tx, eventId: number, input: LotterySettings): Promise<void> {
    const before = await repo.lockLottery(tx, eventId);
    const values = {
      entriesFrom: new Date(input.inscricoes_de),
      entriesUntil: new Date(input.inscricoes_ate),
      places: input.vagas,
      payHours: input.horas_para_pagar,
    };
    if (before?.draws) {
      const same =
        before.entriesFrom.getTime() === values.entriesFrom.getTime() &&
        before.entriesUntil.getTime() === values.entriesUntil.getTime() &&
        before.places === values.places;
      if (!same)
        throw conflict(
          'O sorteio já foi realizado: a janela de inscrições e as vagas não mudam mais.',
          'sorteio_realizado',
        );
    }
    if (before?.commitment && before.entriesUntil.getTime() !== values.entriesUntil.getTime()) {
      const now = deps.now();
      if (before.entriesUntil <= now || values.entriesUntil <= now)
        throw conflict('As inscrições no sorteio já fecharam: o fim não muda mais.', 'sorteio_fechado');
    }
    await repo.upsertLottery(tx, eventId, values);
  }

  /**
   * A runner signs up to the draw (no payment): within the window, one entry per CPF per event, the
   * birth date and the category's rules checked as a registration checks them.
   */
  async function enter(
    eventId: number,
    user: { id: number; email: string },
    input: LotteryEntryInput,
    isLottery: boolean,
  ) {
    const userId = user.id;
    const lottery = isLottery ? await repo.findLottery(deps.db, eventId) : undefined;
    if (!lottery) throw notFound('Este evento não tem sorteio.');
    const now = deps.now();
    if (now < lottery.entriesFrom)
      throw conflict(
        `As inscrições no sorteio abrem em ${formatStoreDateTime(lottery.entriesFrom)}.`,
        'sorteio_nao_aberto',
      );
    if (now >= lottery.entriesUntil || lottery.draws > 0)
      throw conflict('As inscrições no sorteio estão encerradas.', 'sorteio_fechado');
    const event = await deps.events.findEventRow(eventId);
    if (!event) throw notFound('Evento não encontrado.');
    if (!isRegistrationOpen(event.registrationDeadline, now))
      throw conflict('Inscrições encerradas', 'inscricoes_encerradas');
    if (input.data_nascimento > dateInTimeZone(now, STORE_TIME_ZONE))
      throw badRequest('Informe uma data de nascimento válida.', 'validation_error', {
        data_nascimento: 'Informe uma data de nascimento válida.',
      });
    const categories = await deps.events.findCategories([input.categoria]);
    const category = categories[0];
    if (category?.eventId !== eventId)
      throw badRequest('Escolha uma categoria deste evento.', 'validation_error', {
        categoria: 'Escolha uma categoria deste evento.',
      });
    deps.events.checkEligibility(event, categories, input.data_nascimento);
    const entry = await deps.db.transaction(async (tx) => {
      // One account's entries are counted under its lock (two tabs cannot both pass the limit).
      await lockLimits(tx, eventId, { userId, cpf: input.cpf });
      const perBuyer = (await findOpening(tx, eventId))?.perBuyer ?? 1;
      if ((await repo.countEntriesOfUser(tx, eventId, userId)) >= perBuyer)
        throw conflict(
          `Esta conta já inscreveu ${perBuyer === 1 ? 'uma pessoa' : `${perBuyer} pessoas`} no sorteio deste evento, o limite por comprador.`,
          'limite_por_comprador',
        );
      // Another account's entry of this CPF is not refused (nor told): the draw gives a CPF one place,
      // and the kit goes only to whoever shows a photo ID of that CPF.
      const row = await repo.insertEntry(tx, {
        eventId,
        categoryId: category.id,
        userId,
        fullName: input.nome_completo,
        cpf: input.cpf,
        // The account's own address: the shop never mails an address typed in a form.
        email: user.email,
        birthDate: input.data_nascimento,
        createdAt: now,
      });
      if (!row) throw conflict('Você já inscreveu este CPF no sorteio deste evento.', 'cpf_ja_no_sorteio');
      await deps.jobs.send('mail.lottery', { entryId: row.id, kind: 'inscrito' }, { tx });
      return row;
    });
    return toWire(entry, category.name, 'inscrito');
  }

  /** Sends one of the lottery's e-mails (the job's handler). */
  async function sendMail(entryId: number, kind: LotteryMailKind): Promise<void> {
    const found = await repo.findEntry(deps.db, entryId);
    // Erased meanwhile (account deleted): nobody to tell.
    if (!found || found.email === '' || found.cpf === '') return;
    // Another account's entry of a winning CPF: the winner's deadline.
    const entry =
      kind === 'sorteado' && found.wonInDraw === null
        ? {
            ...found,
            payBy: (await winnersByCpf(deps.db, found.eventId, [found.cpf])).get(found.cpf)?.payBy ?? null,
          }
        : found;
    const lottery = await repo.findLottery(deps.db, entry.eventId);
    const event = await deps.events.findEventRow(entry.eventId);
    if (!lottery || !event) return;
    await deps.mail.send(
      lotteryMail({
        env: deps.env,
        kind,
        entry,
        event,
        categoryName: await repo.categoryName(deps.db, entry.categoryId),
        entriesUntil: lottery.entriesUntil,
        page: pageOf(entry.eventId),
      }),
    );
  }

  return { save, ...views, enter, commit, draw, gate, sendMail };
}

export type LotteryService = ReturnType<typeof createLotteryService>;
