import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrations, teams } from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** A team's standing registrations in the event. */
const standingOf = (teamId: number, eventId: number) =>
  and(
    eq(registrations.teamId, teamId),
    eq(registrations.eventId, eventId),
    isNull(registrations.cancelledAt),
  );

/** A team's standing members in the event (every registration in it, however paid). */
export async function standingMembers(db: Conn, teamId: number, eventId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(registrations)
    .where(standingOf(teamId, eventId));
  return row?.n ?? 0;
}

/** Serialises one team's rebates: two members confirmed at once never pay one difference twice. */
export async function lockTeam(tx: Tx, teamId: number): Promise<void> {
  await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('update');
}

/** The standing members priced by the team's tiers, below `percent`. */
export async function membersBelow(tx: Tx, teamId: number, eventId: number, percent: number) {
  return tx
    .select({
      id: registrations.id,
      chargeId: registrations.chargeId,
      totalCents: registrations.totalCents,
      baseCents: registrations.teamPriceBaseCents,
    })
    .from(registrations)
    .where(and(standingOf(teamId, eventId), sql`${registrations.teamTierPercent} < ${percent}`))
    .orderBy(asc(registrations.id))
    .for('update');
}

export async function setTier(tx: Tx, id: number, percent: number, totalCents: number): Promise<void> {
  await tx
    .update(registrations)
    .set({ teamTierPercent: percent, totalCents })
    .where(eq(registrations.id, id));
}
