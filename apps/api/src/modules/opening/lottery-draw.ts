import { randomBytes } from 'node:crypto';
import { formatStoreDateTime } from '@passada/core/calendar';
import type { Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import * as repo from './lottery.repository.ts';
import { commitment, drawRanking } from './lottery.ts';
import { type LotteryServiceDeps, paidWinners, stateOf } from './lottery-context.ts';

const HOUR = 3_600_000;
/** A draw's e-mail jobs inserted per statement (pg-boss's batch insert, one JSON parameter). */
const MAIL_JOBS_PER_STATEMENT = 1000;

/** The commitment and the draws (docs/decisions/0051): the algorithm is lottery.ts's, the rows here. */
export function createLotteryDraw(deps: LotteryServiceDeps) {
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
    const paid = await paidWinners(deps, tx, eventId, entries);
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
    const categories = [...new Set(entries.map((e) => e.categoryId))];
    const left = await repo.placesLeftByCategory(tx, categories);
    for (const e of pending) left.set(e.categoryId, (left.get(e.categoryId) ?? 0) - 1);
    // What the teams' quotas (and any offer) hold is not the draw's to give.
    for (const [id, held] of await deps.registrations.heldPlaces(tx, categories))
      left.set(id, (left.get(id) ?? 0) - held.offers);
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

  return { commit, draw };
}
