import { addYears } from '@passada/core/calendar';
import type { PainelEvent } from '@passada/core/contracts/painel';
import {
  type EventInputSchema,
  type EventUpdateSchema,
  STALE_VERSION_CODE,
} from '@passada/core/contracts/painel';
import { reaisToCents } from '@passada/core/money';
import { and, eq, inArray, like, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { categoryLots, eventCategories, eventDays, eventKitSizes, events } from '../../db/schema/index.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { EVENT_MEDIA_PREFIX, eventPoster } from './event-poster.ts';
import {
  categoryOccupancy,
  countSold,
  countSoldKits,
  findEvent,
  kitOccupancy,
  lockCategoriesForEdit,
  lockKitSizesForEdit,
  notifyEventsChanged,
  setRegistrationsClosed,
} from './events.repository.ts';

/**
 * Gives every event whose poster is generated the address of today's drawing. The drawing is code: when
 * it changes (a city's own scene), the address stored with the event names bytes no server draws any
 * more, and the media route would answer 404. The start-up runs it before the server listens; a few
 * rows, and nothing to do the second time. Not a staff edit: the version stays.
 */
export async function redrawGeneratedPosters(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: events.id,
        name: events.name,
        city: events.city,
        state: events.state,
        startDate: events.startDate,
        endDate: events.endDate,
        imageUrl: events.imageUrl,
      })
      .from(events)
      .where(like(events.imageUrl, `${EVENT_MEDIA_PREFIX}%`))
      .for('update');
    let changed = 0;
    for (const row of rows) {
      const { url } = eventPoster(row);
      if (url === row.imageUrl) continue;
      await tx.update(events).set({ imageUrl: url }).where(eq(events.id, row.id));
      changed += 1;
    }
    if (changed > 0) await notifyEventsChanged(tx);
    return changed;
  });
}

export type EventFields = z.output<typeof EventInputSchema>;
export type EventEdit = z.output<typeof EventUpdateSchema>;
type Input = EventFields;

/** What a save from a form opened before someone else's save gets (409 `versao_desatualizada`). */
export const STALE_EVENT =
  'Este evento foi alterado por outra pessoa depois que você abriu o formulário. Recarregue a página para ver a versão atual; suas alterações não foram salvas.';

type CategoryInput = Input['dias_evento'][number]['categorias'][number];

/** An existing category as the form sends it: its fields and its total places. */
interface CategoryChange {
  id: number;
  /** Where the form shows its capacity, for the message of a refusal. */
  field: string;
  values: {
    dayId: number;
    name: string;
    priceCents: number;
    minAge: number | null;
    maxAge: number | null;
    relayLegs: number | null;
  };
  capacity: number;
}

/** A capacity below what is already sold or held: refused on the field that asked for it. */
function belowSold(field: string, what: string, held: number): HttpError {
  const detail = `${what} já tem ${held} ${held === 1 ? 'vendida ou reservada' : 'vendidas ou reservadas'}: o total não pode ser menor que isso.`;
  return new HttpError(409, detail, 'capacidade_abaixo_do_vendido', { [field]: detail });
}

/** PostgreSQL's foreign-key violation: a category or day someone registered in cannot go. */
const FK_VIOLATION = '23503';

function isFkViolation(error: unknown): boolean {
  return (
    (error as { code?: string }).code === FK_VIOLATION ||
    (error as { cause?: { code?: string } }).cause?.code === FK_VIOLATION
  );
}

function rowFields(input: Input) {
  const dates = input.dias_evento.map((d) => d.data).sort();
  const startDate = dates[0]!;
  const endDate = dates.at(-1)!;
  const poster = eventPoster({
    name: input.nome_evento,
    city: input.city,
    state: input.state,
    startDate,
    endDate,
  });
  return {
    name: input.nome_evento,
    organizer: input.organizer,
    city: input.city,
    state: input.state,
    startDate,
    endDate,
    registrationDeadline: input.prazo_inscricao,
    time: input.hora_evento,
    description: input.descricao_evento,
    regulation: input.regulamento,
    imageUrl: input.imagem_evento || poster.url,
    // Absent fields keep what is stored (a form that does not know them cannot erase them).
    ...(input.kit_local_retirada !== undefined ? { kitPickupPlace: input.kit_local_retirada } : {}),
    ...(input.kit_horarios_retirada !== undefined ? { kitPickupHours: input.kit_horarios_retirada } : {}),
    ...(input.termo_responsabilidade !== undefined ? { terms: input.termo_responsabilidade } : {}),
    ...(input.oferece_pcd !== undefined ? { offersPcd: input.oferece_pcd } : {}),
    ...(input.nfse_codigo_tributacao_nacional !== undefined
      ? { nfseNationalCode: input.nfse_codigo_tributacao_nacional }
      : {}),
    ...(input.nfse_nbs !== undefined ? { nfseNbs: input.nfse_nbs } : {}),
  };
}

/**
 * Creating and editing events for the back office, in the caller's transaction. Categories keep
 * their ids when edited, so registrations and reservations stay attached to them.
 *
 * Places and shirts are edited as capacity: what is left is written as the capacity minus what is sold
 * or held (unreleased reservations) counted under the row's lock at the moment of the write, so a sale
 * made after the form was opened is never undone (docs/decisions/0025-edit-versions-and-money-roles.md).
 */
/** `readForStaff` is the service's getEventForStaff: the event as the form edits it (the audit's "before"). */
export function createEventsAdmin(deps: {
  readForStaff: (id: number, tx: Tx) => Promise<PainelEvent>;
  now: () => Date;
}) {
  async function writeDays(tx: Tx, eventId: number, input: Input) {
    const existingDays = await tx.select().from(eventDays).where(eq(eventDays.eventId, eventId));
    const dayIds = existingDays.map((d) => d.id);
    const stored = dayIds.length
      ? await tx.select().from(eventCategories).where(inArray(eventCategories.dayId, dayIds))
      : [];
    const keptCategoryIds: number[] = [];
    const keptDayIds: number[] = [];
    const changes: CategoryChange[] = [];
    const lots: Array<{ categoryId: number; lotes: CategoryInput['lotes'] }> = [];
    for (const [d, day] of input.dias_evento.entries()) {
      let dayId = existingDays.find((x) => x.date === day.data)?.id;
      if (!dayId) {
        [{ id: dayId }] = (await tx
          .insert(eventDays)
          .values({ eventId, date: day.data })
          .returning({ id: eventDays.id })) as [{ id: number }];
      }
      keptDayIds.push(dayId);
      for (const [k, c] of day.categorias.entries()) {
        const values = {
          dayId,
          name: c.nome_categoria,
          priceCents: reaisToCents(c.preco_inscricao),
          minAge: c.idade_minima ?? null,
          maxAge: c.idade_maxima ?? null,
          relayLegs: c.revezamento ?? null,
        };
        let categoryId: number;
        if (c.id) {
          if (!stored.some((x) => x.id === c.id)) throw notFound('Categoria não encontrada neste evento.');
          categoryId = c.id;
          changes.push({
            id: c.id,
            field: `dias_evento.${d}.categorias.${k}.capacidade`,
            values,
            capacity: c.capacidade,
          });
        } else {
          const [created] = await tx
            .insert(eventCategories)
            .values({ ...values, placesLeft: c.capacidade })
            .returning({ id: eventCategories.id });
          categoryId = created!.id;
        }
        keptCategoryIds.push(categoryId);
        lots.push({ categoryId, lotes: c.lotes });
      }
    }
    await applyCategoryChanges(tx, stored, changes);
    for (const { categoryId, lotes } of lots) {
      if (!lotes) continue;
      await tx.delete(categoryLots).where(eq(categoryLots.categoryId, categoryId));
      if (lotes.length)
        await tx.insert(categoryLots).values(
          lotes.map((l, position) => ({
            categoryId,
            position,
            name: l.nome,
            priceCents: reaisToCents(l.preco_inscricao),
            untilDate: l.ate_data ?? null,
            untilCount: l.ate_inscricoes ?? null,
          })),
        );
    }
    const allDayIds = dayIds.concat(keptDayIds);
    try {
      await tx
        .delete(eventCategories)
        .where(
          and(
            inArray(eventCategories.dayId, allDayIds),
            notInArray(eventCategories.id, keptCategoryIds.concat(0)),
          ),
        );
      await tx
        .delete(eventDays)
        .where(and(eq(eventDays.eventId, eventId), notInArray(eventDays.id, keptDayIds.concat(0))));
    } catch (error) {
      if (isFkViolation(error))
        throw conflict(
          'Há inscrições numa categoria removida: mantenha-a e, para não vender mais, deixe o total igual às vendidas.',
          'categoria_com_inscritos',
        );
      throw error;
    }
  }

  /**
   * Existing categories whose name, price, day or capacity changed, in id order (the order charges
   * lock them in too). A category the form left as it was is not written, so a save that changed other
   * fields never waits on a sale of that category.
   */
  async function applyCategoryChanges(
    tx: Tx,
    stored: Array<typeof eventCategories.$inferSelect>,
    changes: CategoryChange[],
  ) {
    const now = await categoryOccupancy(
      tx,
      changes.map((c) => c.id),
    );
    const toWrite = changes
      .filter((c) => {
        const row = stored.find((x) => x.id === c.id)!;
        const o = now.get(c.id);
        const capacity = (o?.left ?? 0) + (o?.sold ?? 0);
        return (
          row.name !== c.values.name ||
          row.priceCents !== c.values.priceCents ||
          row.dayId !== c.values.dayId ||
          row.minAge !== c.values.minAge ||
          row.maxAge !== c.values.maxAge ||
          row.relayLegs !== c.values.relayLegs ||
          capacity !== c.capacity
        );
      })
      .sort((a, b) => a.id - b.id);
    if (toWrite.length === 0) return;
    await lockCategoriesForEdit(
      tx,
      toWrite.map((c) => c.id),
    );
    // Counted after the locks: every sale of these categories has committed or waits for this one.
    const held = await countSold(
      tx,
      toWrite.map((c) => c.id),
    );
    for (const c of toWrite) {
      const sold = held.get(c.id) ?? 0;
      if (c.capacity < sold) throw belowSold(c.field, `A categoria ${c.values.name}`, sold);
      await tx
        .update(eventCategories)
        .set({ ...c.values, placesLeft: c.capacity - sold })
        .where(eq(eventCategories.id, c.id));
    }
  }

  /** The kit's sizes as given; a size someone holds or bought cannot be removed, only set to 0. */
  async function writeKit(tx: Tx, eventId: number, input: Input) {
    if (!input.kit_tamanhos) return;
    const kept: number[] = [];
    const existing = await tx.select().from(eventKitSizes).where(eq(eventKitSizes.eventId, eventId));
    const changes: Array<{ id: number; field: string; size: string; position: number; capacity: number }> =
      [];
    for (const [position, k] of input.kit_tamanhos.entries()) {
      // A size sent again by name (without its id) is the same size, not a second one.
      const id = k.id ?? existing.find((e) => e.size === k.tamanho)?.id;
      if (id) {
        if (!existing.some((e) => e.id === id)) throw notFound('Tamanho não encontrado neste evento.');
        changes.push({
          id,
          field: `kit_tamanhos.${position}.capacidade`,
          size: k.tamanho,
          position,
          capacity: k.capacidade,
        });
        kept.push(id);
      } else {
        const [created] = await tx
          .insert(eventKitSizes)
          .values({ eventId, size: k.tamanho, left: k.capacidade, position })
          .returning({ id: eventKitSizes.id });
        kept.push(created!.id);
      }
    }
    const now = await kitOccupancy(
      tx,
      changes.map((c) => c.id),
    );
    const toWrite = changes
      .filter((c) => {
        const row = existing.find((e) => e.id === c.id)!;
        const o = now.get(c.id);
        return (
          row.size !== c.size || row.position !== c.position || (o?.left ?? 0) + (o?.sold ?? 0) !== c.capacity
        );
      })
      .sort((a, b) => a.id - b.id);
    if (toWrite.length) {
      await lockKitSizesForEdit(
        tx,
        toWrite.map((c) => c.id),
      );
      const held = await countSoldKits(
        tx,
        toWrite.map((c) => c.id),
      );
      for (const c of toWrite) {
        const sold = held.get(c.id) ?? 0;
        if (c.capacity < sold) throw belowSold(c.field, `O tamanho ${c.size}`, sold);
        await tx
          .update(eventKitSizes)
          .set({ size: c.size, position: c.position, left: c.capacity - sold })
          .where(eq(eventKitSizes.id, c.id));
      }
    }
    try {
      await tx
        .delete(eventKitSizes)
        .where(and(eq(eventKitSizes.eventId, eventId), notInArray(eventKitSizes.id, kept.concat(0))));
    } catch (error) {
      if (isFkViolation(error))
        throw conflict(
          'Há inscrições com um tamanho removido: mantenha-o e, para não vender mais, deixe o total igual às vendidas.',
          'tamanho_com_inscritos',
        );
      throw error;
    }
  }

  async function createEvent(tx: Tx, input: Input): Promise<number> {
    const [row] = await tx.insert(events).values(rowFields(input)).returning({ id: events.id });
    await writeDays(tx, row!.id, input);
    await writeKit(tx, row!.id, input);
    await notifyEventsChanged(tx);
    return row!.id;
  }

  /**
   * Saves the form if the event is still at the version it was read at: the check and the bump are
   * one conditional UPDATE, whose row lock holds a second save of the same version until this one
   * ends, and then finds the version moved on (409, nothing written). Answers the event as it was
   * before, for the audit line.
   */
  async function updateEvent(tx: Tx, id: number, input: EventEdit): Promise<PainelEvent> {
    const before = await deps.readForStaff(id, tx);
    const [row] = await tx
      .update(events)
      .set({ ...rowFields(input), version: sql`${events.version} + 1` })
      .where(and(eq(events.id, id), eq(events.version, input.versao)))
      .returning({ id: events.id });
    if (!row) {
      if (!(await findEvent(tx, id))) throw notFound('Evento não encontrado.');
      throw conflict(STALE_EVENT, STALE_VERSION_CODE);
    }
    await writeDays(tx, id, input);
    await writeKit(tx, id, input);
    await notifyEventsChanged(tx);
    return before;
  }

  /**
   * The event again for next year: dates one year on (days, deadline, lots, and the dd/mm/aaaa dates
   * written in its texts), the same categories, age limits, prices, places and shirts as totals, its
   * own regulation and termo; no registrations, registrations open, version 1. Answers the new id.
   */
  async function duplicateEvent(tx: Tx, id: number): Promise<number> {
    const e = await deps.readForStaff(id, tx);
    const input: Input = {
      nome_evento: nextYearText(e.nome_evento),
      organizer: e.organizer,
      city: e.city,
      state: e.state,
      prazo_inscricao: addYears(e.prazo_inscricao, 1),
      hora_evento: e.hora_evento,
      descricao_evento: nextYearText(e.descricao_evento),
      regulamento: nextYearText(e.regulamento),
      imagem_evento: e.imagem_evento,
      kit_tamanhos: e.kit_tamanhos.map((k) => ({ tamanho: k.tamanho, capacidade: k.capacidade })),
      kit_local_retirada: e.kit_local_retirada,
      kit_horarios_retirada: nextYearText(e.kit_horarios_retirada),
      termo_responsabilidade: nextYearText(e.termo_responsabilidade),
      oferece_pcd: e.oferece_pcd,
      nfse_codigo_tributacao_nacional: e.nfse_codigo_tributacao_nacional,
      nfse_nbs: e.nfse_nbs,
      dias_evento: e.dias_evento.map((d) => ({
        data: addYears(d.data, 1),
        categorias: d.categorias.map((c) => ({
          nome_categoria: c.nome_categoria,
          preco_inscricao: c.preco_inscricao,
          capacidade: c.capacidade,
          idade_minima: c.idade_minima,
          idade_maxima: c.idade_maxima,
          revezamento: c.revezamento,
          lotes: (c.lotes ?? []).map((l) => ({
            ...l,
            ate_data: l.ate_data ? addYears(l.ate_data, 1) : null,
          })),
        })),
      })),
    };
    return createEvent(tx, input);
  }

  /**
   * Closes or reopens the event's registrations by hand: the shop then says they are closed and the
   * registration path refuses new ones (checkEligibility). Not a form edit: the version stays, so a form
   * open meanwhile still saves. Answers whether they were open before, for the audit line.
   */
  async function setRegistrationsOpen(tx: Tx, id: number, open: boolean): Promise<{ abertas: boolean }> {
    const before = await findEvent(tx, id);
    if (!before || !(await setRegistrationsClosed(tx, id, !open, deps.now())))
      throw notFound('Evento não encontrado.');
    return { abertas: !before.registrationsClosed };
  }

  return { createEvent, updateEvent, duplicateEvent, setRegistrationsOpen };
}

/** A text with every year in it one on: "Maratona 2026" and "05/12/2026" become 2027. */
function nextYearText(text: string): string {
  return text
    .replace(/\b(\d{2})\/(\d{2})\/(\d{4})\b/g, (_, d: string, m: string, y: string) => {
      const [ny, nm, nd] = addYears(`${y}-${m}-${d}`, 1).split('-');
      return `${nd}/${nm}/${ny}`;
    })
    .replace(/(?<![\d/])(20\d{2})(?![\d/])/g, (y) => String(Number(y) + 1));
}

export type EventsAdmin = ReturnType<typeof createEventsAdmin>;
