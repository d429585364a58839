import { and, asc, count, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { eventCategories, lotteryEntries, openingLotteries } from '../../db/schema/index.ts';

export type LotteryRow = typeof openingLotteries.$inferSelect;
export type EntryRow = typeof lotteryEntries.$inferSelect;
type Reader = Db | Tx;

export async function findLottery(db: Reader, eventId: number): Promise<LotteryRow | undefined> {
  const [row] = await db.select().from(openingLotteries).where(eq(openingLotteries.eventId, eventId));
  return row;
}

/** Locks the lottery's row until the transaction ends (settings, commitment and draws are serialised). */
export async function lockLottery(tx: Tx, eventId: number): Promise<LotteryRow | undefined> {
  const [row] = await tx
    .select()
    .from(openingLotteries)
    .where(eq(openingLotteries.eventId, eventId))
    .for('update');
  return row;
}

export type LotteryValues = Pick<
  typeof openingLotteries.$inferInsert,
  'entriesFrom' | 'entriesUntil' | 'places' | 'payHours'
>;

export async function upsertLottery(tx: Tx, eventId: number, values: LotteryValues): Promise<void> {
  await tx
    .insert(openingLotteries)
    .values({ eventId, ...values })
    .onConflictDoUpdate({ target: openingLotteries.eventId, set: values });
}

export async function setCommitment(tx: Tx, eventId: number, seed: string, hash: string, now: Date) {
  await tx
    .update(openingLotteries)
    .set({ seed, commitment: hash, committedAt: now })
    .where(eq(openingLotteries.eventId, eventId));
}

export async function markDrawn(tx: Tx, eventId: number, now: Date): Promise<void> {
  await tx
    .update(openingLotteries)
    .set({
      draws: sql`${openingLotteries.draws} + 1`,
      drawnAt: sql`coalesce(${openingLotteries.drawnAt}, ${now})`,
    })
    .where(eq(openingLotteries.eventId, eventId));
}

/** A new entry, or undefined when this account already entered this CPF in the event's lottery. */
export async function insertEntry(
  tx: Tx,
  values: Omit<typeof lotteryEntries.$inferInsert, 'id'>,
): Promise<EntryRow | undefined> {
  const [row] = await tx.insert(lotteryEntries).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findEntry(db: Reader, id: number): Promise<EntryRow | undefined> {
  const [row] = await db.select().from(lotteryEntries).where(eq(lotteryEntries.id, id));
  return row;
}

/**
 * The entries of this CPF in the event's lottery (one per account that entered it), locked until the
 * transaction ends, in id order (two payments lock them in the same order).
 */
export function lockEntriesOfCpf(tx: Tx, eventId: number, cpf: string): Promise<EntryRow[]> {
  return (
    tx
      .select()
      .from(lotteryEntries)
      // `cpf <> ''` spelled out so a generic plan still matches the partial unique index (erased entries
      // have an empty CPF, docs/decisions/0047).
      .where(
        and(eq(lotteryEntries.eventId, eventId), eq(lotteryEntries.cpf, cpf), ne(lotteryEntries.cpf, '')),
      )
      .orderBy(asc(lotteryEntries.id))
      .for('update')
  );
}

/** The entries of these CPFs in the event's lottery that a draw picked (any account's). */
export function winnersOfCpfs(db: Reader, eventId: number, cpfs: readonly string[]): Promise<EntryRow[]> {
  if (cpfs.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(lotteryEntries)
    .where(
      and(
        eq(lotteryEntries.eventId, eventId),
        inArray(lotteryEntries.cpf, [...cpfs]),
        ne(lotteryEntries.cpf, ''),
        isNotNull(lotteryEntries.wonInDraw),
      ),
    )
    .orderBy(asc(lotteryEntries.wonInDraw));
}

/** Entries this account made in the event's lottery (erased ones aside): its per-buyer count. */
export async function countEntriesOfUser(db: Reader, eventId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(lotteryEntries)
    .where(
      and(eq(lotteryEntries.eventId, eventId), eq(lotteryEntries.userId, userId), ne(lotteryEntries.cpf, '')),
    );
  return row?.n ?? 0;
}

/** Every entry of the event, ascending by id. */
export function listEntries(db: Reader, eventId: number): Promise<EntryRow[]> {
  return db
    .select()
    .from(lotteryEntries)
    .where(eq(lotteryEntries.eventId, eventId))
    .orderBy(asc(lotteryEntries.id));
}

/** The entries an account made in the event's lottery, with their category's name. */
export function entriesOfUser(db: Reader, eventId: number, userId: number) {
  return db
    .select({ entry: lotteryEntries, categoryName: eventCategories.name })
    .from(lotteryEntries)
    .innerJoin(eventCategories, eq(eventCategories.id, lotteryEntries.categoryId))
    .where(and(eq(lotteryEntries.eventId, eventId), eq(lotteryEntries.userId, userId)))
    .orderBy(asc(lotteryEntries.id));
}

export async function categoryName(db: Reader, categoryId: number): Promise<string> {
  const [row] = await db
    .select({ name: eventCategories.name })
    .from(eventCategories)
    .where(eq(eventCategories.id, categoryId));
  return row?.name ?? '';
}

export async function countEntries(db: Reader, eventId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(lotteryEntries)
    .where(eq(lotteryEntries.eventId, eventId));
  return row?.n ?? 0;
}

/** Sets each entry's place in the ranking (1 = first drawn). */
export async function setRanks(tx: Tx, ranking: readonly number[]): Promise<void> {
  if (ranking.length === 0) return;
  await tx.execute(sql`
    update ${lotteryEntries} set rank = r.rank
    from unnest(${`{${ranking.join(',')}}`}::int[]) with ordinality as r(id, rank)
    where ${lotteryEntries.id} = r.id`);
}

/** Marks a draw's winners (one array parameter: a draw may pick more ids than a statement takes parameters). */
export async function markWinners(tx: Tx, ids: readonly number[], draw: number, payBy: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(lotteryEntries)
    .set({ wonInDraw: draw, payBy })
    .where(sql`${lotteryEntries.id} = any(${`{${ids.join(',')}}`}::int[])`);
}

/** Places left in the event's categories. */
export async function placesLeftByCategory(db: Reader, categoryIds: number[]): Promise<Map<number, number>> {
  if (categoryIds.length === 0) return new Map();
  const rows = await db
    .select({ id: eventCategories.id, left: eventCategories.placesLeft })
    .from(eventCategories)
    .where(inArray(eventCategories.id, categoryIds));
  return new Map(rows.map((r) => [r.id, r.left]));
}
