import { parseEstimatedTime, waveCandidates } from '@passada/core/waves';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrationCategories, registrations } from '../../db/schema/index.ts';
import type { EventWavesService } from '../events/event-waves.service.ts';

type Conn = Db | Tx;

/**
 * Who holds each start wave (docs/decisions/0066): a registration's race not cancelled whose `onda_id` is
 * the wave. A cancelled runner frees the slot by being cancelled; nothing counts down.
 */
export async function waveCounts(db: Conn, waveIds: number[]): Promise<Map<number, number>> {
  if (!waveIds.length) return new Map();
  const rows = await db
    .select({ id: registrationCategories.waveId, n: count() })
    .from(registrationCategories)
    .where(and(inArray(registrationCategories.waveId, waveIds), isNull(registrationCategories.cancelledAt)))
    .groupBy(registrationCategories.waveId);
  return new Map(rows.map((r) => [r.id!, r.n]));
}

/** A runner's estimate for one race, in seconds, from the draft's `tempos_estimados` (null: none given). */
export function estimateFor(
  estimates: ReadonlyArray<{ categoria: number; tempo: string }> | undefined,
  categoryId: number,
): number | null {
  const typed = estimates?.find((e) => e.categoria === categoryId)?.tempo;
  return typed === undefined ? null : parseEstimatedTime(typed);
}

/**
 * Gives one race of a registration its start wave: the first wave whose bound holds the estimate and
 * which has room, trying each slower one after (fill, then roll over); the last wave takes whoever did
 * not fit. Runners of one category are given waves one at a time (a transaction advisory lock), so two
 * never take a wave's last slot. A category without waves leaves the race without one.
 */
export async function giveWave(
  tx: Tx,
  waves: Pick<EventWavesService, 'ofCategory'>,
  entry: { id: number; categoryId: number },
  estimateSeconds: number | null,
): Promise<number | null> {
  const rules = await waves.ofCategory(tx, entry.categoryId);
  let waveId: number | null = null;
  if (rules.length) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`start-wave:${entry.categoryId}`}))`);
    const taken = await waveCounts(
      tx,
      rules.map((w) => w.id),
    );
    const candidates = waveCandidates(rules, estimateSeconds).map((i) => rules[i]!);
    const free = candidates.find((w) => w.capacity === null || (taken.get(w.id) ?? 0) < w.capacity);
    // Every candidate full only happens when the organiser capped the last wave: the slowest candidate then.
    waveId = (free ?? candidates[candidates.length - 1])?.id ?? null;
  }
  await tx
    .update(registrationCategories)
    .set({ waveId, estimatedSeconds: estimateSeconds })
    .where(eq(registrationCategories.id, entry.id));
  return waveId;
}

/** Gives every race of a new registration its wave, with the estimates of its draft. */
export async function giveWaves(
  tx: Tx,
  waves: Pick<EventWavesService, 'ofCategory'>,
  registrationId: number,
  estimates: ReadonlyArray<{ categoria: number; tempo: string }> | undefined,
): Promise<void> {
  const entries = await tx
    .select({ id: registrationCategories.id, categoryId: registrationCategories.categoryId })
    .from(registrationCategories)
    .where(eq(registrationCategories.registrationId, registrationId));
  for (const entry of entries) await giveWave(tx, waves, entry, estimateFor(estimates, entry.categoryId));
}

/**
 * Gives a wave to the category's standing runners who have none (registered before the organiser set the
 * waves, or before a wave with room existed): the fastest estimates first, then in order of registration,
 * each by the same rule as at payment. Answers how many got one. Runners with a wave keep it.
 */
export async function giveMissingWaves(
  tx: Tx,
  waves: Pick<EventWavesService, 'ofCategory'>,
  categoryId: number,
): Promise<number> {
  if (!(await waves.ofCategory(tx, categoryId)).length) return 0;
  const missing = await tx
    .select({ id: registrationCategories.id, estimate: registrationCategories.estimatedSeconds })
    .from(registrationCategories)
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .where(
      and(
        eq(registrationCategories.categoryId, categoryId),
        isNull(registrationCategories.waveId),
        isNull(registrationCategories.cancelledAt),
        isNull(registrations.cancelledAt),
      ),
    )
    .orderBy(sql`${registrationCategories.estimatedSeconds} asc nulls last`, asc(registrationCategories.id));
  for (const entry of missing) await giveWave(tx, waves, { id: entry.id, categoryId }, entry.estimate);
  return missing.length;
}
