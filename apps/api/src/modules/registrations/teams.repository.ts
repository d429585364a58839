import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  eventCategories,
  events,
  registrationCategories,
  registrationCheckins,
  registrations,
  teams,
  users,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** The names of a registration's standing categories, in their order (for a select of registrations). */
const categoryNames = sql<string[]>`coalesce((
  select array_agg(${eventCategories.name} order by ${eventCategories.id})
  from ${registrationCategories} join ${eventCategories} on ${eventCategories.id} = ${registrationCategories.categoryId}
  where ${registrationCategories.registrationId} = ${registrations.id} and ${registrationCategories.cancelledAt} is null
), '{}')`;

export type TeamRow = typeof teams.$inferSelect;

/** A new team; undefined when its code was drawn already (the caller draws another). */
export async function insertTeam(
  tx: Tx,
  row: { eventId: number | null; name: string; captainUserId: number; joinCode: string },
): Promise<TeamRow | undefined> {
  const [created] = await tx.insert(teams).values(row).onConflictDoNothing().returning();
  return created;
}

export async function teamByCode(db: Conn, code: string): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.joinCode, code));
  return row;
}

/** The captain's team, locked for a change; undefined when it is not theirs. */
export async function lockCaptainTeam(tx: Tx, captainUserId: number, id: number) {
  const [row] = await tx
    .select()
    .from(teams)
    .where(and(eq(teams.id, id), eq(teams.captainUserId, captainUserId)))
    .for('update');
  return row;
}

export async function setClosed(tx: Tx, id: number, closedAt: Date | null) {
  await tx.update(teams).set({ closedAt }).where(eq(teams.id, id));
}

/** Serialises one captain's new teams until the transaction ends (the per-account cap). */
export async function lockCaptain(tx: Tx, captainUserId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`team-captain:${captainUserId}`}))`);
}

export async function countOfCaptain(db: Conn, captainUserId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(teams)
    .where(eq(teams.captainUserId, captainUserId));
  return row?.n ?? 0;
}

/** The captain's teams (or only the one with this id), newest first, with their event's name. */
export async function teamsOfCaptain(db: Conn, captainUserId: number, id?: number) {
  return db
    .select({ team: teams, eventName: events.name })
    .from(teams)
    .leftJoin(events, eq(events.id, teams.eventId))
    .where(and(eq(teams.captainUserId, captainUserId), id === undefined ? undefined : eq(teams.id, id)))
    .orderBy(desc(teams.createdAt), desc(teams.id));
}

export async function eventName(db: Conn, id: number): Promise<string | undefined> {
  const [row] = await db.select({ name: events.name }).from(events).where(eq(events.id, id));
  return row?.name;
}

/**
 * The standing (not cancelled) registrations of these teams, optionally of one event, with their
 * categories' names, what they cost, and whether the kit was collected.
 */
export async function membersOf(db: Conn, teamIds: number[], eventId?: number) {
  if (teamIds.length === 0) return [];
  return db
    .select({
      registrationId: registrations.id,
      teamId: registrations.teamId,
      name: registrations.fullName,
      eventName: events.name,
      createdAt: registrations.createdAt,
      totalCents: registrations.totalCents,
      teamBatchId: registrations.teamBatchId,
      pickedUp: sql<boolean>`${registrationCheckins.registrationId} is not null`,
      categories: categoryNames,
    })
    .from(registrations)
    .innerJoin(events, eq(events.id, registrations.eventId))
    .leftJoin(registrationCheckins, eq(registrationCheckins.registrationId, registrations.id))
    .where(
      and(
        inArray(registrations.teamId, teamIds),
        isNull(registrations.cancelledAt),
        eventId === undefined ? undefined : eq(registrations.eventId, eventId),
      ),
    )
    .orderBy(asc(registrations.fullName), asc(registrations.id));
}

/**
 * The teams of an event for the back office: its own, and the season's teams (no event) that have a
 * member registered in it; with the captain's name and e-mail.
 */
export async function teamsOfEvent(db: Conn, eventId: number) {
  const seasonWithMembers = sql`${teams.eventId} is null and exists (
    select 1 from ${registrations} r where r.equipe_id = ${teams.id} and r.event_id = ${eventId} and r.cancelled_at is null)`;
  return db
    .select({ team: teams, captainName: users.fullName, captainEmail: users.email })
    .from(teams)
    .leftJoin(users, eq(users.id, teams.captainUserId))
    .where(or(eq(teams.eventId, eventId), seasonWithMembers))
    .orderBy(asc(teams.name), asc(teams.id));
}

/** A team with its captain's name (null once the account was deleted). */
export async function teamWithCaptain(db: Conn, id: number) {
  const [row] = await db
    .select({ team: teams, captainName: users.fullName })
    .from(teams)
    .leftJoin(users, eq(users.id, teams.captainUserId))
    .where(eq(teams.id, id));
  return row;
}

/**
 * These teams' standing registrations in one event for their pickup at the desk: whether the runner let
 * the team collect, the 60+ half price (the rules may keep that kit for the runner) and the pickup, if any.
 */
export async function pickupRowsOf(db: Conn, teamIds: number[], eventId: number) {
  if (teamIds.length === 0) return [];
  return db
    .select({
      id: registrations.id,
      teamId: registrations.teamId,
      name: registrations.fullName,
      consentAt: registrations.teamPickupConsentAt,
      seniorDiscount: registrations.seniorDiscount,
      checkinAt: registrationCheckins.at,
      checkinStaff: registrationCheckins.staffName,
      collectorName: registrationCheckins.collectorName,
      categories: categoryNames,
    })
    .from(registrations)
    .leftJoin(registrationCheckins, eq(registrationCheckins.registrationId, registrations.id))
    .where(
      and(
        inArray(registrations.teamId, teamIds),
        eq(registrations.eventId, eventId),
        isNull(registrations.cancelledAt),
      ),
    )
    .orderBy(asc(registrations.fullName), asc(registrations.id));
}

/** A registration's team and its consent to the team's pickup, read again under the check-in's lock. */
export async function teamPickupStateOf(tx: Tx, registrationId: number) {
  const [row] = await tx
    .select({ teamId: registrations.teamId, consentAt: registrations.teamPickupConsentAt })
    .from(registrations)
    .where(eq(registrations.id, registrationId));
  return row;
}
