import type {
  LotteryEntry,
  PainelLottery,
  PainelLotteryEntry,
  PainelLotteryEntryQuery,
  PublicLottery,
} from '@passada/core/contracts/lottery';
import { maskCpf } from '@passada/core/documents';
import type { Db, Tx } from '../../db/client.ts';
import { notFound } from '../../plugins/errors.ts';
import * as repo from './lottery.repository.ts';
import { type LotteryServiceDeps, paidWinners, stateOf, toWire, winnersByCpf } from './lottery-context.ts';
import { listEntriesPage } from './lottery-entries.read-model.ts';

/** Entries per page of the back office's list. */
export const ENTRIES_PAGE_SIZE = 50;

/** What the lottery shows: the back office's figures and entries, the public view, a runner's entries. */
export function createLotteryViews(deps: LotteryServiceDeps) {
  async function painelView(db: Db | Tx, eventId: number): Promise<PainelLottery | null> {
    const lottery = await repo.findLottery(db, eventId);
    if (!lottery) return null;
    const now = deps.now();
    const entries = await repo.listEntries(db, eventId);
    const paid = await paidWinners(deps, db, eventId, entries);
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
    const paid = await paidWinners(deps, deps.db, eventId, [...won.values()]);
    const now = deps.now();
    return rows.map((r) => {
      const winner = r.entry.wonInDraw === null ? won.get(r.entry.cpf) : r.entry;
      const shown = winner ? { ...r.entry, wonInDraw: winner.wonInDraw, payBy: winner.payBy } : r.entry;
      return toWire(shown, r.categoryName, stateOf(shown, lottery, paid, now));
    });
  }

  return { painelView, painelEntries, publicView, mine };
}
