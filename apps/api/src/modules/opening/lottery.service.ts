import { randomBytes } from 'node:crypto';
import { dateInTimeZone, formatStoreDateTime, STORE_TIME_ZONE } from '@passada/core/calendar';
import type {
  LotteryEntry,
  LotteryEntryInput,
  LotterySettings,
  PainelLottery,
  PainelLotteryEntry,
  PainelLotteryEntryQuery,
  PublicLottery,
} from '@passada/core/contracts/lottery';
import { maskCpf } from '@passada/core/documents';
import { isRegistrationOpen } from '@passada/core/events';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../../config/env.ts';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import type { EventRow, EventsService, OpeningGateWho } from '../events/events.service.ts';
import * as repo from './lottery.repository.ts';
import { commitment, drawRanking } from './lottery.ts';
import { listEntriesPage } from './lottery-entries.read-model.ts';
import { type LotteryMailKind, lotteryMail } from './lottery-mail.ts';
import { findOpening, lockLimits } from './opening.repository.ts';
import type { RegistrationCounts } from './registration-counts.ts';

const HOUR = 3_600_000;
/** A draw's e-mail jobs inserted per statement (pg-boss's batch insert, one JSON parameter). */
const MAIL_JOBS_PER_STATEMENT = 1000;
/** Entries per page of the back office's list. */
export const ENTRIES_PAGE_SIZE = 50;

export interface LotteryServiceDeps {
  db: Db;
  now: () => Date;
  env: Pick<Env, 'STORE_NAME' | 'publicUrl'>;
  events: Pick<EventsService, 'findEventRow' | 'findCategories' | 'checkEligibility'>;
  jobs: FastifyInstance['jobs'];
  mail: MailProvider;
  /** What stands against the limits and which winners paid, counted by registrations (installed at start). */
  registrations: RegistrationCounts;
}

/**
 * The lottery opening (docs/decisions/0051-lottery-opening.md): entries in a window, a commitment to a
 * secret seed published before it closes, the draw (lottery.ts) and further draws for places left
 * unpaid, and the registrations' gate that lets only winners within their deadline pay.
 */
export function createLotteryService(deps: LotteryServiceDeps) {
  const pageOf = (eventId: number) => `${deps.env.publicUrl}/eventos/register/${eventId}`;

  /** The CPFs of these entries' winners with a registration standing in the event: the winners who paid. */
  function paidWinners(
    db: Db | Tx,
    eventId: number,
    entries: readonly repo.EntryRow[],
  ): Promise<Set<string>> {
    const won = entries.filter((e) => e.wonInDraw !== null).map((e) => e.cpf);
    return deps.registrations.standingCpfs(db, eventId, won);
  }

  /** A winner's state: paid, still within the deadline, or the deadline passed unpaid. */
  function stateOf(entry: repo.EntryRow, lottery: repo.LotteryRow, paid: Set<string>, now: Date) {
    if (lottery.draws === 0) return 'inscrito' as const;
    if (entry.wonInDraw === null) return 'nao_sorteado' as const;
    if (paid.has(entry.cpf)) return 'pago' as const;
    return entry.payBy && entry.payBy > now ? ('sorteado' as const) : ('expirado' as const);
  }

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

  async function painelView(db: Db | Tx, eventId: number): Promise<PainelLottery | null> {
    const lottery = await repo.findLottery(db, eventId);
    if (!lottery) return null;
    const now = deps.now();
    const entries = await repo.listEntries(db, eventId);
    const paid = await paidWinners(db, eventId, entries);
    const states = entries.map((e) => stateOf(e, lottery, paid, now));
    const n = (s: string) => states.filter((x) => x === s).length;
    return {
      inscricoes_de: lottery.entriesFrom.toISOString(),
      inscricoes_ate: lottery.entriesUntil.toISOString(),
      vagas: lottery.places,
      horas_para_pagar: lottery.payHours,
      compromisso: lottery.commitment,
      compromisso_em: lottery.committedAt?.toISOString() ?? null,
      sorteado_em: lottery.drawnAt?.toISOString() ?? null,
      sorteios: lottery.draws,
      inscritos: entries.length,
      aguardando_pagamento: n('sorteado'),
      pagos: n('pago'),
      expirados: n('expirado'),
    };
  }

  /**
   * The back office's entries, filtered on the server (state, the entry's number, a name or e-mail, a
   * whole CPF): one page of `ENTRIES_PAGE_SIZE`, or every one for the CSV (`page` null). The CPF is
   * masked in `results`; `cpfs` (whole, in the same order) is for the CSV alone.
   */
  async function painelEntries(eventId: number, query: PainelLotteryEntryQuery, page: number | null) {
    const lottery = await repo.findLottery(deps.db, eventId);
    if (!lottery) throw notFound('Este evento não tem sorteio.');
    const { rows, count } = await listEntriesPage(
      deps.db,
      eventId,
      lottery.draws,
      deps.now(),
      { state: query.estado, search: query.busca },
      page === null ? null : { limit: ENTRIES_PAGE_SIZE, offset: (page - 1) * ENTRIES_PAGE_SIZE },
    );
    const results: PainelLotteryEntry[] = rows.map(({ entry, categoryName, state }) => ({
      id: entry.id,
      nome_completo: entry.fullName,
      cpf_mascarado: maskCpf(entry.cpf),
      email: entry.email,
      categoria: entry.categoryId,
      categoria_nome: categoryName,
      estado: state,
      posicao: entry.rank,
      sorteio: entry.wonInDraw,
      pagar_ate: entry.payBy?.toISOString() ?? null,
      inscrito_em: entry.createdAt.toISOString(),
    }));
    return { results, count, page_size: ENTRIES_PAGE_SIZE, cpfs: rows.map((r) => r.entry.cpf) };
  }

  /** What anyone reads: the window, the commitment and, after the draw, the seed, ids and ranking. */
  async function publicView(eventId: number): Promise<PublicLottery> {
    const lottery = await repo.findLottery(deps.db, eventId);
    if (!lottery) throw notFound('Este evento não tem sorteio.');
    const entries = await repo.listEntries(deps.db, eventId);
    const drawn = lottery.draws > 0;
    const ranked = drawn ? [...entries].filter((e) => e.rank !== null).sort((a, b) => a.rank! - b.rank!) : [];
    return {
      inscricoes_de: lottery.entriesFrom.toISOString(),
      inscricoes_ate: lottery.entriesUntil.toISOString(),
      vagas: lottery.places,
      horas_para_pagar: lottery.payHours,
      inscritos: entries.length,
      compromisso: lottery.commitment,
      compromisso_em: lottery.committedAt?.toISOString() ?? null,
      semente: drawn ? lottery.seed : null,
      ids_inscricoes: drawn ? entries.map((e) => e.id) : [],
      classificacao: ranked.map((e) => e.id),
      sorteios: Array.from({ length: lottery.draws }, (_, i) => ({
        numero: i + 1,
        ids: ranked.filter((e) => e.wonInDraw === i + 1).map((e) => e.id),
      })),
    };
  }

  function toWire(entry: repo.EntryRow, name: string, state: LotteryEntry['estado']): LotteryEntry {
    return {
      id: entry.id,
      nome_completo: entry.fullName,
      cpf_mascarado: maskCpf(entry.cpf),
      categoria: entry.categoryId,
      categoria_nome: name,
      estado: state,
      posicao: entry.rank,
      pagar_ate: state === 'sorteado' || state === 'expirado' ? (entry.payBy?.toISOString() ?? null) : null,
    };
  }

  /**
   * The winning entry of each CPF among these (another account's included): the draw gives a CPF,
   * not an entry, its place, so every account that entered the CPF sees the result. The latest draw's.
   */
  async function winnersByCpf(db: Db | Tx, eventId: number, cpfs: readonly string[]) {
    const won = new Map<string, repo.EntryRow>();
    for (const w of await repo.winnersOfCpfs(db, eventId, cpfs)) won.set(w.cpf, w);
    return won;
  }

  /**
   * The entries this account made in the event's lottery, with their result: an entry whose CPF was
   * drawn through another account's entry shows that draw (the place is the person's, whoever entered).
   */
  async function mine(eventId: number, userId: number): Promise<LotteryEntry[]> {
    const lottery = await repo.findLottery(deps.db, eventId);
    if (!lottery) throw notFound('Este evento não tem sorteio.');
    const rows = await repo.entriesOfUser(deps.db, eventId, userId);
    const drawn = lottery.draws > 0;
    const won = drawn
      ? await winnersByCpf(
          deps.db,
          eventId,
          rows.map((r) => r.entry.cpf),
        )
      : new Map<string, repo.EntryRow>();
    const paid = await paidWinners(deps.db, eventId, [...won.values()]);
    const now = deps.now();
    return rows.map((r) => {
      const winner = r.entry.wonInDraw === null ? won.get(r.entry.cpf) : r.entry;
      const shown = winner ? { ...r.entry, wonInDraw: winner.wonInDraw, payBy: winner.payBy } : r.entry;
      return toWire(shown, r.categoryName, stateOf(shown, lottery, paid, now));
    });
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

  /** Publishes the commitment: a fresh secret seed, of which only the SHA-256 is shown until the draw. */
  async function commit(tx: Tx, eventId: number): Promise<void> {
    const lottery = await repo.lockLottery(tx, eventId);
    if (!lottery) throw notFound('Este evento não tem sorteio configurado.');
    if (lottery.commitment)
      throw conflict('O compromisso deste sorteio já foi publicado e não muda.', 'compromisso_publicado');
    const now = deps.now();
    if (now >= lottery.entriesUntil)
      throw conflict(
        'As inscrições no sorteio já fecharam: o compromisso precisa ser publicado antes do fim delas.',
        'sorteio_fechado',
      );
    const seed = randomBytes(32).toString('hex');
    await repo.setCommitment(tx, eventId, seed, commitment(seed), now);
  }

  /**
   * The first draw, or a further one for places left unpaid: winners are taken in ranking order among
   * those not drawn yet whose category still has a place once the places of winners still within their
   * deadline are set aside, so the places held for winners never exceed the places left.
   */
  async function draw(tx: Tx, eventId: number): Promise<{ draw: number; winners: number[] }> {
    const lottery = await repo.lockLottery(tx, eventId);
    if (!lottery) throw notFound('Este evento não tem sorteio configurado.');
    const now = deps.now();
    if (!lottery.commitment || !lottery.seed)
      throw conflict('Publique o compromisso do sorteio antes de sortear.', 'sem_compromisso');
    if (now < lottery.entriesUntil)
      throw conflict(
        `As inscrições no sorteio vão até ${formatStoreDateTime(lottery.entriesUntil)}; sorteie depois disso.`,
        'sorteio_em_andamento',
      );
    let entries = await repo.listEntries(tx, eventId);
    const first = lottery.draws === 0;
    if (first) {
      const ranking = drawRanking(
        lottery.seed,
        entries.map((e) => e.id),
      );
      await repo.setRanks(tx, ranking);
      const rank = new Map(ranking.map((id, i) => [id, i + 1]));
      entries = entries.map((e) => ({ ...e, rank: rank.get(e.id) ?? null }));
    }
    const paid = await paidWinners(tx, eventId, entries);
    const pending = entries.filter((e) => stateOf(e, lottery, paid, now) === 'sorteado');
    // An entry erased under the LGPD (docs/decisions/0047) keeps its id and place in the ranking with a
    // blank CPF: never drawn again, and an erased winner counts as filled (one place fewer, never more).
    const erased = (e: repo.EntryRow) => e.cpf === '';
    const held = new Set(pending);
    // Places taken: each winner still within the deadline or erased, each CPF that paid once.
    const filled = new Set(
      entries
        .filter((e) => e.wonInDraw !== null && (held.has(e) || paid.has(e.cpf) || erased(e)))
        .map((e) => (held.has(e) || erased(e) ? `e${e.id}` : `c${e.cpf}`)),
    ).size;
    const wanted = lottery.places - filled;
    // A CPF has one place: entries of a CPF that holds one (paid, or a winner within the deadline,
    // whichever account entered it) are passed over, and so are a CPF's later entries in this draw.
    const placed = new Set([...pending.map((e) => e.cpf), ...paid]);
    const candidates = entries
      .filter((e) => e.wonInDraw === null && !erased(e) && !placed.has(e.cpf))
      .sort((a, b) => a.rank! - b.rank!);
    if (!first && (wanted <= 0 || candidates.length === 0))
      throw conflict(
        wanted <= 0
          ? 'Não há vagas do sorteio sem dono: todos os sorteados pagaram ou ainda estão no prazo.'
          : 'Todos os inscritos já foram sorteados.',
        'nada_a_sortear',
      );
    const left = await repo.placesLeftByCategory(tx, [...new Set(entries.map((e) => e.categoryId))]);
    for (const e of pending) left.set(e.categoryId, (left.get(e.categoryId) ?? 0) - 1);
    const winners: number[] = [];
    for (const e of candidates) {
      if (winners.length >= wanted) break;
      const room = left.get(e.categoryId) ?? 0;
      if (room <= 0 || placed.has(e.cpf)) continue;
      left.set(e.categoryId, room - 1);
      placed.add(e.cpf);
      winners.push(e.id);
    }
    if (!first && winners.length === 0)
      throw conflict('As categorias dos próximos da classificação estão sem vagas.', 'nada_a_sortear');
    const number = lottery.draws + 1;
    await repo.markWinners(tx, winners, number, new Date(now.getTime() + lottery.payHours * HOUR));
    await repo.markDrawn(tx, eventId, now);
    // One e-mail per entry told (the winners; after the first draw, everyone else too), committed with
    // the draw: inserted by pages of MAIL_JOBS_PER_STATEMENT jobs, one statement each, in this transaction.
    const mails: Array<{
      name: 'mail.lottery';
      data: { entryId: number; kind: 'sorteado' | 'nao_sorteado' };
    }> = [];
    // The winners, and every other account's entry of a winning CPF (the place is the person's).
    const wonCpfs = new Set(entries.filter((e) => winners.includes(e.id)).map((e) => e.cpf));
    for (const e of entries)
      if (!erased(e) && wonCpfs.has(e.cpf))
        mails.push({ name: 'mail.lottery', data: { entryId: e.id, kind: 'sorteado' } });
    if (first) {
      for (const e of entries)
        if (!wonCpfs.has(e.cpf))
          mails.push({ name: 'mail.lottery', data: { entryId: e.id, kind: 'nao_sorteado' } });
    }
    for (let i = 0; i < mails.length; i += MAIL_JOBS_PER_STATEMENT)
      await deps.jobs.sendAll(mails.slice(i, i + MAIL_JOBS_PER_STATEMENT), { tx });
    return { draw: number, winners };
  }

  /**
   * The registrations' rule while the lottery is on: only a CPF drawn (through any account's entry),
   * within the deadline, in the category drawn, one registration (paid or being paid) for the CPF, and
   * the opening's registrations per buyer counted over what the account holds, pays for and has in the
   * same cart. Counted under the buyer's and the CPF's locks and the CPF's entries' row locks, so two
   * payments for the same winner, or two tabs of one buyer, are serialised.
   */
  async function gate(tx: Tx, event: EventRow, who: OpeningGateWho, perBuyer: number): Promise<void> {
    const lottery = await repo.findLottery(tx, event.id);
    if (!lottery || lottery.draws === 0)
      throw conflict(
        'As inscrições deste evento são por sorteio: inscreva-se no sorteio na página do evento.',
        'inscricao_por_sorteio',
      );
    await lockLimits(tx, event.id, who);
    const entries = await repo.lockEntriesOfCpf(tx, event.id, who.cpf);
    const now = deps.now();
    const won = entries.filter((e) => e.wonInDraw !== null);
    const entry = won.find((e) => e.payBy && e.payBy > now) ?? won.at(-1);
    if (!entry)
      throw conflict(
        'Este CPF não foi sorteado neste evento; se houver novos sorteios, avisaremos por e-mail.',
        'nao_sorteado',
      );
    // A late payment's charge was made within the deadline: the one-per-CPF and per-buyer still count.
    if (!who.late && (!entry.payBy || entry.payBy <= now))
      throw conflict('O prazo para pagar a vaga sorteada terminou.', 'prazo_do_sorteio_encerrado');
    if (who.categoryIds && (who.categoryIds.length !== 1 || who.categoryIds[0] !== entry.categoryId))
      throw conflict(
        `A vaga sorteada é na categoria ${await repo.categoryName(tx, entry.categoryId)}.`,
        'categoria_do_sorteio',
      );
    const taken = await deps.registrations.countForCpf(tx, event.id, who.cpf, who.handover?.registrationId);
    if (taken >= 1)
      throw conflict(
        'Este CPF já tem a inscrição sorteada (paga ou em pagamento) neste evento.',
        'limite_por_cpf',
      );
    const byBuyer =
      (await deps.registrations.countForBuyer(tx, event.id, who.userId)) + (who.inSameCharge ?? 0);
    if (byBuyer >= perBuyer)
      throw conflict(
        `Esta conta já fez ${perBuyer} ${perBuyer === 1 ? 'inscrição' : 'inscrições'} (pagas ou em pagamento) neste evento, o limite por comprador.`,
        'limite_por_comprador',
      );
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

  return { save, painelView, painelEntries, publicView, mine, enter, commit, draw, gate, sendMail };
}

export type LotteryService = ReturnType<typeof createLotteryService>;
