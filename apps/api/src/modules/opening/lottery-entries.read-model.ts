import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { eventCategories, lotteryEntries, registrations } from '../../db/schema/index.ts';

/**
 * The back office's list of a lottery's entries and its CSV (docs/decisions/0051): a report, filtered,
 * searched and paged on the server, whose state is computed in SQL as the service's `stateOf` computes
 * it, so "pago" reads the registrations standing for the entry's CPF (docs/architecture.md §9: a read
 * model reads any table and writes none).
 */

type Reader = Db | Tx;

export type EntryState = 'inscrito' | 'sorteado' | 'nao_sorteado' | 'pago' | 'expirado';

export interface EntryFilter {
  state?: EntryState;
  search?: string;
}

/**
 * An entry's state in SQL, as `stateOf` in the service computes it: before the first draw every entry
 * is `inscrito`; after it a winner with a registration standing for the CPF paid, one within the
 * deadline is `sorteado`, one past it `expirado`; the others were not drawn.
 */
function stateSql(draws: number, now: Date): SQL<EntryState> {
  if (draws === 0) return sql<EntryState>`'inscrito'`;
  return sql<EntryState>`case
    when ${lotteryEntries.wonInDraw} is null then 'nao_sorteado'
    when exists (select 1 from ${registrations} where ${registrations.eventId} = ${lotteryEntries.eventId}
      and ${registrations.cpf} = ${lotteryEntries.cpf} and ${registrations.cancelledAt} is null) then 'pago'
    when ${lotteryEntries.payBy} > ${now} then 'sorteado'
    else 'expirado' end`;
}

function entryWhere(eventId: number, draws: number, now: Date, f: EntryFilter): SQL | undefined {
  const conds: Array<SQL | undefined> = [eq(lotteryEntries.eventId, eventId)];
  if (f.state) conds.push(sql`${stateSql(draws, now)} = ${f.state}`);
  const q = f.search?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const number = /^#?(\d{1,9})$/.exec(q);
    // A whole CPF, typed with or without its dots and dash.
    const cpf = /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(q) ? q.replace(/\D/g, '') : null;
    conds.push(
      or(
        ilike(lotteryEntries.fullName, like),
        ilike(lotteryEntries.email, like),
        number ? eq(lotteryEntries.id, Number(number[1])) : undefined,
        cpf ? eq(lotteryEntries.cpf, cpf) : undefined,
      ),
    );
  }
  return and(...conds);
}

/**
 * A page of the event's entries (ascending by id, `limit` null: all), with the category's name and
 * the state, and how many entries the filter finds.
 */
export async function listEntriesPage(
  db: Reader,
  eventId: number,
  draws: number,
  now: Date,
  filter: EntryFilter,
  page: { limit: number; offset: number } | null,
) {
  const where = entryWhere(eventId, draws, now, filter);
  const query = db
    .select({ entry: lotteryEntries, categoryName: eventCategories.name, state: stateSql(draws, now) })
    .from(lotteryEntries)
    .innerJoin(eventCategories, eq(eventCategories.id, lotteryEntries.categoryId))
    .where(where)
    .orderBy(asc(lotteryEntries.id));
  const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
  const [total] = await db.select({ n: count() }).from(lotteryEntries).where(where);
  return { rows, count: total?.n ?? 0 };
}
