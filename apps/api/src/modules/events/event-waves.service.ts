import type { EventWaves, PainelWaves, WavesBodySchema, WavesGiven } from '@passada/core/contracts/waves';
import { formatEstimatedTime, parseEstimatedTime, wavesProblem } from '@passada/core/waves';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { eventCategories, eventCategoryWaves, eventDays } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { notifyEventsChanged } from './events.repository.ts';

type Conn = Db | Tx;
type WaveRow = typeof eventCategoryWaves.$inferSelect;

/** The event's categories with their waves, fastest first (categories without waves included). */
async function wavesOfEvent(db: Conn, eventId: number) {
  const categories = await db
    .select({ id: eventCategories.id, name: eventCategories.name })
    .from(eventCategories)
    .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
    .where(eq(eventDays.eventId, eventId))
    .orderBy(asc(eventDays.date), asc(eventCategories.id));
  const waves = categories.length
    ? await db
        .select()
        .from(eventCategoryWaves)
        .where(
          inArray(
            eventCategoryWaves.categoryId,
            categories.map((c) => c.id),
          ),
        )
        .orderBy(asc(eventCategoryWaves.position))
    : [];
  return categories.map((c) => ({ ...c, waves: waves.filter((w) => w.categoryId === c.id) }));
}

const bound = (w: WaveRow) => (w.upToSeconds === null ? null : formatEstimatedTime(w.upToSeconds));

/** How many runners each wave holds (the registrations module counts them: it owns who holds one). */
export type WaveCounts = (waveIds: number[]) => Promise<Map<number, number>>;

/**
 * Start waves by estimated finish time (docs/decisions/0066): the organiser's ranges and caps per
 * category. Who holds a wave is the registrations module's; it asks `ofCategory` for the rules when a
 * runner is given one.
 */
export function createEventWaves(deps: { db: Db }) {
  /** Each race of the event that has waves, for the registration form. */
  async function ofEvent(eventId: number): Promise<EventWaves> {
    return (await wavesOfEvent(deps.db, eventId))
      .filter((c) => c.waves.length > 0)
      .map((c) => ({ categoria_id: c.id, ondas: c.waves.map((w) => ({ nome: w.name, ate: bound(w) })) }));
  }

  /**
   * One category's waves, fastest first (empty when it has none), share-locked until the transaction
   * ends: an organiser's edit of them waits for the registration being given one.
   */
  function ofCategory(tx: Tx, categoryId: number): Promise<WaveRow[]> {
    return tx
      .select()
      .from(eventCategoryWaves)
      .where(eq(eventCategoryWaves.categoryId, categoryId))
      .orderBy(asc(eventCategoryWaves.position))
      .for('share');
  }

  /** Every category of the event with its waves, caps and runners, for the back office. */
  async function forStaff(eventId: number, counts: WaveCounts, db: Conn = deps.db): Promise<PainelWaves> {
    const categories = await wavesOfEvent(db, eventId);
    const taken = await counts(categories.flatMap((c) => c.waves.map((w) => w.id)));
    return categories.map((c) => ({
      categoria_id: c.id,
      categoria: c.name,
      ondas: c.waves.map((w) => ({
        id: w.id,
        nome: w.name,
        ate: bound(w),
        capacidade: w.capacity,
        ocupadas: taken.get(w.id) ?? 0,
      })),
    }));
  }

  /**
   * Replaces a category's waves with `body`'s, in order. A wave sent with its id keeps its runners; a
   * wave left out that holds runners is refused (409), as is a cap below the runners a wave holds.
   * Runners already placed stay where they are: new bounds apply to the next registrations.
   */
  /** 404 unless the category is one of the event's. */
  async function checkCategory(tx: Tx, eventId: number, categoryId: number): Promise<void> {
    const [category] = await tx
      .select({ id: eventCategories.id })
      .from(eventCategories)
      .innerJoin(eventDays, eq(eventDays.id, eventCategories.dayId))
      .where(and(eq(eventCategories.id, categoryId), eq(eventDays.eventId, eventId)));
    if (!category) throw notFound('Categoria não encontrada neste evento.');
  }

  async function save(
    tx: Tx,
    eventId: number,
    categoryId: number,
    body: z.output<typeof WavesBodySchema>,
    counts: WaveCounts,
  ): Promise<PainelWaves> {
    await checkCategory(tx, eventId, categoryId);
    const wanted = body.ondas.map((o) => ({
      ...o,
      upToSeconds: o.ate === null ? null : parseEstimatedTime(o.ate),
      capacity: o.capacidade,
    }));
    const problem = wavesProblem(wanted);
    if (problem) throw badRequest(problem, 'ondas_invalidas');
    // Locked: a registration given a wave meanwhile waits for this edit (it reads them with a share lock).
    const current = await tx
      .select()
      .from(eventCategoryWaves)
      .where(eq(eventCategoryWaves.categoryId, categoryId))
      .for('update');
    for (const w of wanted)
      if (w.id !== undefined && !current.some((c) => c.id === w.id))
        throw notFound('Onda não encontrada nesta categoria.');
    const taken = await counts(current.map((c) => c.id));
    const kept = new Set(wanted.flatMap((w) => (w.id === undefined ? [] : [w.id])));
    const dropped = current.filter((c) => !kept.has(c.id));
    if (dropped.some((c) => (taken.get(c.id) ?? 0) > 0))
      throw conflict(
        'Uma onda com inscritos não pode ser removida: mude o nome ou os limites dela.',
        'onda_com_inscritos',
      );
    for (const w of wanted) {
      const holds = w.id === undefined ? 0 : (taken.get(w.id) ?? 0);
      if (w.capacity !== null && w.capacity < holds)
        throw conflict(
          `A onda ${w.nome} já tem ${holds} inscritos: o limite de vagas não pode ficar abaixo disso.`,
          'onda_abaixo_dos_inscritos',
        );
    }
    if (dropped.length)
      await tx.delete(eventCategoryWaves).where(
        inArray(
          eventCategoryWaves.id,
          dropped.map((d) => d.id),
        ),
      );
    for (const [position, w] of wanted.entries()) {
      const values = { name: w.nome, upToSeconds: w.upToSeconds, capacity: w.capacity, position };
      if (w.id === undefined) await tx.insert(eventCategoryWaves).values({ categoryId, ...values });
      else await tx.update(eventCategoryWaves).set(values).where(eq(eventCategoryWaves.id, w.id));
    }
    await notifyEventsChanged(tx);
    return forStaff(eventId, counts, tx);
  }

  /**
   * Gives a wave to the category's runners who have none (`give`: registrations' rule, decision 0066,
   * later), in the caller's transaction; answers how many got one and the waves after.
   */
  async function giveMissing(
    tx: Tx,
    eventId: number,
    categoryId: number,
    give: (tx: Tx, categoryId: number) => Promise<number>,
    counts: WaveCounts,
  ): Promise<WavesGiven> {
    await checkCategory(tx, eventId, categoryId);
    const atribuidas = await give(tx, categoryId);
    return { atribuidas, categorias: await forStaff(eventId, counts, tx) };
  }

  /** The names of waves by id (tickets, e-mails, the desk, the timing CSV). */
  async function names(db: Conn, ids: ReadonlyArray<number | null>): Promise<Map<number, string>> {
    const unique = [...new Set(ids.filter((id): id is number => id !== null))];
    if (!unique.length) return new Map();
    const rows = await db
      .select({ id: eventCategoryWaves.id, name: eventCategoryWaves.name })
      .from(eventCategoryWaves)
      .where(inArray(eventCategoryWaves.id, unique));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  return { ofEvent, ofCategory, forStaff, save, giveMissing, names };
}

export type EventWavesService = ReturnType<typeof createEventWaves>;
export type { WaveRow };
