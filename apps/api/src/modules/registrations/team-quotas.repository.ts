import { and, asc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { eventCategories, events, teamQuotas, teams } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type QuotaRow = typeof teamQuotas.$inferSelect;

/** The places a quota's registrations hold now: its open reservations (a released one came back). */
// Spelled out: a one-table select leaves its columns unqualified, and the subquery's own `id` would win.
const used = sql<number>`(select count(*)::int from place_reservations held where held.team_quota_id = "team_quotas"."id" and held.released_at is null)`;

/** A quota still lasts: the organiser's end, when set, has not come. */
const lasting = (now: Date): SQL => or(isNull(teamQuotas.endsAt), gt(teamQuotas.endsAt, now)) as SQL;

/** The team's quotas of these categories that last and have a place unused, by category. */
export async function roomFor(db: Conn, teamId: number, categoryIds: readonly number[], now: Date) {
  if (categoryIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ id: teamQuotas.id, categoryId: teamQuotas.categoryId })
    .from(teamQuotas)
    .where(
      and(
        eq(teamQuotas.teamId, teamId),
        inArray(teamQuotas.categoryId, [...categoryIds]),
        lasting(now),
        sql`${teamQuotas.places} > ${used}`,
      ),
    );
  return new Map(rows.map((r) => [r.categoryId, r.id]));
}

/**
 * The quota locked, then its places used counted: the takers of one quota run one at a time, and each
 * counts the places the ones before it committed (in a statement of its own, after the lock is granted:
 * one statement's snapshot would be taken before the wait).
 */
export async function lockQuota(tx: Tx, id: number) {
  const [quota] = await tx.select().from(teamQuotas).where(eq(teamQuotas.id, id)).for('update');
  if (!quota) return undefined;
  const [count] = await tx.select({ used }).from(teamQuotas).where(eq(teamQuotas.id, id));
  return { quota, used: count?.used ?? 0 };
}

/**
 * Per category, the places its lasting quotas hold unused (the public may not take them), as rows of the
 * waitlist's counts (`kind` 'cota'): `countsOf` reads both in one statement, on every place taken.
 */
export function unusedByCategory(db: Conn, categoryIds: readonly number[], now: Date) {
  return db
    .select({
      categoryId: teamQuotas.categoryId,
      kind: sql<string>`'cota'`.as('kind'),
      n: sql<number>`coalesce(sum(greatest(${teamQuotas.places} - ${used}, 0)), 0)::int`.as('n'),
    })
    .from(teamQuotas)
    .where(and(inArray(teamQuotas.categoryId, [...categoryIds]), lasting(now)))
    .groupBy(teamQuotas.categoryId);
}

/** An event's quotas (ended ones with places used too), with the team's and category's names. */
export async function quotasOfEvent(db: Conn, eventId: number) {
  return db
    .select({
      quota: teamQuotas,
      used,
      teamName: teams.name,
      teamCode: teams.joinCode,
      categoryName: eventCategories.name,
    })
    .from(teamQuotas)
    .innerJoin(teams, eq(teams.id, teamQuotas.teamId))
    .innerJoin(eventCategories, eq(eventCategories.id, teamQuotas.categoryId))
    .where(and(eq(teamQuotas.eventId, eventId), or(gt(teamQuotas.places, 0), sql`${used} > 0`)))
    .orderBy(asc(eventCategories.id), asc(teams.name));
}

/** The team's quota of a category, locked (the organiser's edit) and its places used, or undefined. */
export async function lockQuotaOf(tx: Tx, teamId: number, categoryId: number) {
  const [quota] = await tx
    .select({ id: teamQuotas.id })
    .from(teamQuotas)
    .where(and(eq(teamQuotas.teamId, teamId), eq(teamQuotas.categoryId, categoryId)))
    .for('update');
  return quota ? lockQuota(tx, quota.id) : undefined;
}

export async function saveQuota(
  tx: Tx,
  values: {
    eventId: number;
    categoryId: number;
    teamId: number;
    places: number;
    endsAt: Date | null;
    endedAt: Date | null;
    now: Date;
  },
): Promise<void> {
  const { now, ...row } = values;
  await tx
    .insert(teamQuotas)
    .values({ ...row, updatedAt: now })
    .onConflictDoUpdate({
      target: [teamQuotas.categoryId, teamQuotas.teamId],
      set: { places: row.places, endsAt: row.endsAt, endedAt: row.endedAt, updatedAt: now },
    });
}

/** Quotas nobody used and the organiser set to nothing: gone. */
export async function dropEmpty(tx: Tx, eventId: number): Promise<void> {
  await tx
    .delete(teamQuotas)
    .where(
      and(
        eq(teamQuotas.eventId, eventId),
        eq(teamQuotas.places, 0),
        sql`not exists (select 1 from place_reservations held where held.team_quota_id = "team_quotas"."id")`,
      ),
    );
}

/** Quotas whose end came and was not acted on yet, marked: how many. */
export async function markEnded(tx: Tx, now: Date): Promise<number> {
  const rows = await tx
    .update(teamQuotas)
    .set({ endedAt: now })
    .where(and(isNull(teamQuotas.endedAt), sql`${teamQuotas.endsAt} <= ${now}`))
    .returning({ id: teamQuotas.id });
  return rows.length;
}

/** The lasting quotas of these teams with places reserved, with the event's and category's names. */
export async function quotasOfTeams(db: Conn, teamIds: readonly number[], now: Date) {
  if (teamIds.length === 0) return [];
  return db
    .select({ quota: teamQuotas, used, eventName: events.name, categoryName: eventCategories.name })
    .from(teamQuotas)
    .innerJoin(events, eq(events.id, teamQuotas.eventId))
    .innerJoin(eventCategories, eq(eventCategories.id, teamQuotas.categoryId))
    .where(and(inArray(teamQuotas.teamId, [...teamIds]), gt(teamQuotas.places, 0), lasting(now)))
    .orderBy(asc(teamQuotas.id));
}
