import { and, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  charges,
  eventCategories,
  eventDays,
  placeReservations,
  registrations,
} from '../../db/schema/index.ts';

type Conn = Db | Tx;

/** Whose registrations an opening limits: one CPF's (the runner's) or one account's (the buyer's). */
type Who = { cpf: string } | { userId: number };

const rowsOf = async <T>(db: Conn, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** Registrations of the event that stand (not cancelled): all, of one CPF or bought by one account. */
function registered(db: Conn, eventId: number, who?: Who) {
  return db
    .select({ n: count() })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, eventId),
        isNull(registrations.cancelledAt),
        !who
          ? undefined
          : 'cpf' in who
            ? eq(registrations.cpf, who.cpf)
            : eq(registrations.accountUserId, who.userId),
      ),
    );
}

/**
 * Runners being paid for in the event (places held by a charge not yet paid), in all or of one account
 * or CPF: the places an admitted runner is paying for count against the limits. Counted per participant
 * in the charges' drafts, not per charge: a cart (`order`) names its runners under `participants`, each
 * with its event, and may carry two people, or one person of another event; a registration's charge
 * names one at the top. A charge that pays a transfer or a change of distance holds the place of a
 * registration already counted, so it counts none.
 */
function paying(db: Conn, eventId: number, who?: Who) {
  const person = (p: SQL) =>
    sql`(${p}->>'evento')::int = ${eventId}${who && 'cpf' in who ? sql` and ${p}->>'cpf' = ${who.cpf}` : sql``}`;
  const holding = db
    .selectDistinct({ chargeId: placeReservations.chargeId })
    .from(placeReservations)
    .innerJoin(eventCategories, eq(eventCategories.id, placeReservations.categoryId))
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(
      and(
        eq(eventDays.eventId, eventId),
        isNull(placeReservations.releasedAt),
        sql`not exists (select 1 from ${registrations} where ${registrations.chargeId} = ${placeReservations.chargeId} and ${registrations.eventId} = ${eventId})`,
      ),
    );
  const d = sql`${charges.draft}`;
  return db
    .select({
      n: sql<number>`coalesce(sum(case
        when ${charges.purpose} = 'order' then (
          select count(*) from jsonb_array_elements(coalesce(${d}->'participants', '[]'::jsonb)) p
           where ${person(sql`p.value`)})
        when ${charges.purpose} = 'registration'
             and ${d}->'change' is null and ${d}->'troca_distancia' is null
             and ${d}->'transfer' is null and ${d}->'transferencia' is null
             and ${person(d)} then 1
        else 0 end), 0)`,
    })
    .from(charges)
    .where(
      and(inArray(charges.id, holding), who && 'userId' in who ? eq(charges.userId, who.userId) : undefined),
    );
}

/**
 * Transfers of the event's registrations being paid (a charge open: a Pix not yet paid, a card pending at
 * the provider): they hold no place, but once paid one more registration stands. Counted for the
 * account paying (the per-buyer limit, 0060 later: a place handed within one account adds nothing to
 * it) or for the new runner's CPF (the per-CPF limit, 0060 later: the draft's `cpf` is hers). `handing`:
 * a registration being handed over right now, whose own transfer's charges are that handover, counted
 * once by its caller (the new runner paying again after an earlier attempt, or another account paying
 * the same invitation).
 */
function transfersPaying(
  db: Conn,
  eventId: number,
  who: { userId: number } | { cpf: string; handing?: number },
) {
  const d = sql`${charges.draft}`;
  return db
    .select({ n: count() })
    .from(charges)
    .where(
      and(
        eq(charges.purpose, 'registration'),
        inArray(charges.status, ['ATIVA', 'EM_ANALISE']),
        sql`${d}->'transfer' is not null`,
        sql`(${d}->>'evento')::int = ${eventId}`,
        'userId' in who
          ? and(
              eq(charges.userId, who.userId),
              sql`not exists (select 1 from ${registrations} where ${registrations.id} = (${d}->'transfer'->>'registrationId')::int and ${registrations.accountUserId} = ${who.userId})`,
            )
          : and(
              sql`${d}->>'cpf' = ${who.cpf}`,
              who.handing === undefined
                ? undefined
                : sql`(${d}->'transfer'->>'registrationId')::int <> ${who.handing}`,
            ),
      ),
    );
}

/** The three counts above of one CPF or one account, added up in one statement. */
async function standing(
  db: Conn,
  eventId: number,
  who: { userId: number } | { cpf: string; handing?: number },
) {
  const person: Who = 'userId' in who ? { userId: who.userId } : { cpf: who.cpf };
  const [row] = await rowsOf<{ n: number | string }>(
    db,
    sql`select (${registered(db, eventId, person)})::int + (${paying(db, eventId, person)})::int
      + (${transfersPaying(db, eventId, who)})::int as n`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Everything that stands against an opening's registrations per CPF (0060, later): the CPF's
 * registrations standing, the places being paid for it (a sale, a cart's participant) and the transfers
 * to it being paid, in one statement. The one count of the per-CPF limit, in the waiting room's gate and
 * the lottery's alike, for a new sale, a cart's runner and a transfer's new runner (`handing`: the
 * registration being handed over, see `transfersPaying`).
 */
export function countForCpf(db: Conn, eventId: number, cpf: string, handing?: number): Promise<number> {
  return standing(db, eventId, { cpf, handing });
}

/**
 * What one account holds, pays for and is paying transfers of in the event, against an opening's
 * registrations per buyer (a cart's runners of the same charge are added by the caller), in one statement.
 */
export function countForBuyer(db: Conn, eventId: number, userId: number): Promise<number> {
  return standing(db, eventId, { userId });
}

/** The event's registrations standing and runners being paid for, for the opening's live figures. */
export async function countOfEvent(db: Conn, eventId: number): Promise<{ paid: number; paying: number }> {
  const [row] = await rowsOf<{ paid: number | string; paying: number | string }>(
    db,
    sql`select (${registered(db, eventId)})::int as paid, (${paying(db, eventId)})::int as paying`,
  );
  return { paid: Number(row?.paid ?? 0), paying: Number(row?.paying ?? 0) };
}

/**
 * Of these CPFs, those with a registration standing (not cancelled) in the event: the lottery's winners
 * who paid. One array parameter, however many CPFs a draw gave places to.
 */
export async function standingCpfs(db: Conn, eventId: number, cpfs: readonly string[]): Promise<Set<string>> {
  if (cpfs.length === 0) return new Set();
  const list = `{${[...new Set(cpfs)].map((c) => `"${c.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  const rows = await db
    .selectDistinct({ cpf: registrations.cpf })
    .from(registrations)
    .where(
      and(
        eq(registrations.eventId, eventId),
        isNull(registrations.cancelledAt),
        sql`${registrations.cpf} = any(${list}::text[])`,
      ),
    );
  return new Set(rows.map((r) => r.cpf));
}
