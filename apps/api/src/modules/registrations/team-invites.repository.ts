import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { events, teamInvites, teams, users } from '../../db/schema/index.ts';

type Conn = Db | Tx;

export type InviteRow = typeof teamInvites.$inferSelect;

/** New invitations; the ones whose address the team invited already are skipped. Answers those made. */
export async function insertInvites(
  tx: Tx,
  rows: Array<{ teamId: number; name: string; email: string; token: string; createdAt: Date }>,
): Promise<InviteRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(teamInvites).values(rows).onConflictDoNothing().returning();
}

/** How many invitations the captain's teams sent since `since` (the daily cap). */
export async function sentSince(db: Conn, captainUserId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(teamInvites)
    .innerJoin(teams, eq(teams.id, teamInvites.teamId))
    .where(and(eq(teams.captainUserId, captainUserId), gte(teamInvites.createdAt, since)));
  return row?.n ?? 0;
}

export async function invitesOf(db: Conn, teamIds: number[]) {
  if (teamIds.length === 0) return [];
  return db
    .select()
    .from(teamInvites)
    .where(inArray(teamInvites.teamId, teamIds))
    .orderBy(asc(teamInvites.name), asc(teamInvites.id));
}

/** An invitation with its team, event and captain's names, for the e-mail and the link's page. */
export async function inviteWithTeam(db: Conn, where: { id: number } | { token: string }) {
  const [row] = await db
    .select({
      invite: teamInvites,
      team: teams,
      eventName: events.name,
      captainName: users.fullName,
    })
    .from(teamInvites)
    .innerJoin(teams, eq(teams.id, teamInvites.teamId))
    .leftJoin(events, eq(events.id, teams.eventId))
    .leftJoin(users, eq(users.id, teams.captainUserId))
    .where('id' in where ? eq(teamInvites.id, where.id) : eq(teamInvites.token, where.token));
  return row;
}

export async function confirm(tx: Tx, id: number, at: Date): Promise<void> {
  await tx.update(teamInvites).set({ status: 'confirmado', answeredAt: at }).where(eq(teamInvites.id, id));
}

/** A refusal: the name and e-mail the captain gave go. */
export async function remove(tx: Tx, id: number): Promise<void> {
  await tx.delete(teamInvites).where(eq(teamInvites.id, id));
}

/** Unanswered invitations older than `before`, erased; answers how many. */
export async function eraseUnansweredBefore(db: Conn, before: Date): Promise<number> {
  const gone = await db
    .delete(teamInvites)
    .where(and(eq(teamInvites.status, 'pendente'), lt(teamInvites.createdAt, before)))
    .returning({ id: teamInvites.id });
  return gone.length;
}
