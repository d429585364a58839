import type { EventInputSchema } from '@passada/core/contracts/painel';
import { reaisToCents } from '@passada/core/money';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { categoryLots, eventCategories, eventDays, eventKitSizes, events } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import { eventPoster } from './event-poster.ts';
import { notifyEventsChanged } from './events.repository.ts';

export type EventFields = z.output<typeof EventInputSchema>;
type Input = EventFields;

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
  };
}

/**
 * Creating and editing events for the back office, in the caller's transaction. Categories keep
 * their ids when edited, so registrations and reservations stay attached to them.
 */
export function createEventsAdmin() {
  async function writeDays(tx: Tx, eventId: number, input: Input) {
    const existingDays = await tx.select().from(eventDays).where(eq(eventDays.eventId, eventId));
    const keptCategoryIds: number[] = [];
    const keptDayIds: number[] = [];
    for (const day of input.dias_evento) {
      let dayId = existingDays.find((d) => d.date === day.data)?.id;
      if (!dayId) {
        [{ id: dayId }] = (await tx
          .insert(eventDays)
          .values({ eventId, date: day.data })
          .returning({ id: eventDays.id })) as [{ id: number }];
      }
      keptDayIds.push(dayId);
      for (const c of day.categorias) {
        const values = {
          dayId,
          name: c.nome_categoria,
          priceCents: reaisToCents(c.preco_inscricao),
          placesLeft: c.quantidade_disponivel,
        };
        if (c.id) {
          const [updated] = await tx
            .update(eventCategories)
            .set(values)
            .where(
              and(
                eq(eventCategories.id, c.id),
                inArray(eventCategories.dayId, existingDays.map((d) => d.id).concat(0)),
              ),
            )
            .returning({ id: eventCategories.id });
          if (!updated) throw notFound('Categoria não encontrada neste evento.');
          keptCategoryIds.push(updated.id);
        } else {
          const [created] = await tx
            .insert(eventCategories)
            .values(values)
            .returning({ id: eventCategories.id });
          keptCategoryIds.push(created!.id);
        }
        const categoryId = keptCategoryIds.at(-1)!;
        if (c.lotes) {
          await tx.delete(categoryLots).where(eq(categoryLots.categoryId, categoryId));
          if (c.lotes.length)
            await tx.insert(categoryLots).values(
              c.lotes.map((l, position) => ({
                categoryId,
                position,
                name: l.nome,
                priceCents: reaisToCents(l.preco_inscricao),
                untilDate: l.ate_data ?? null,
                untilCount: l.ate_inscricoes ?? null,
              })),
            );
        }
      }
    }
    const allDayIds = existingDays.map((d) => d.id).concat(keptDayIds);
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
          'Há inscrições numa categoria removida: mantenha-a ou zere as vagas.',
          'categoria_com_inscritos',
        );
      throw error;
    }
  }

  /** The kit's sizes as given; a size someone holds or bought cannot be removed, only set to 0. */
  async function writeKit(tx: Tx, eventId: number, input: Input) {
    if (!input.kit_tamanhos) return;
    const kept: number[] = [];
    const existing = await tx.select().from(eventKitSizes).where(eq(eventKitSizes.eventId, eventId));
    for (const [position, k] of input.kit_tamanhos.entries()) {
      const values = { eventId, size: k.tamanho, left: k.quantidade_disponivel, position };
      // A size sent again by name (without its id) is the same size, not a second one.
      const id = k.id ?? existing.find((e) => e.size === k.tamanho)?.id;
      if (id) {
        const [updated] = await tx
          .update(eventKitSizes)
          .set(values)
          .where(and(eq(eventKitSizes.id, id), eq(eventKitSizes.eventId, eventId)))
          .returning({ id: eventKitSizes.id });
        if (!updated) throw notFound('Tamanho não encontrado neste evento.');
        kept.push(updated.id);
      } else {
        const [created] = await tx.insert(eventKitSizes).values(values).returning({ id: eventKitSizes.id });
        kept.push(created!.id);
      }
    }
    try {
      await tx
        .delete(eventKitSizes)
        .where(and(eq(eventKitSizes.eventId, eventId), notInArray(eventKitSizes.id, kept.concat(0))));
    } catch (error) {
      if (isFkViolation(error))
        throw conflict(
          'Há inscrições com um tamanho removido: mantenha-o ou zere a quantidade.',
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

  async function updateEvent(tx: Tx, id: number, input: Input): Promise<void> {
    const [row] = await tx
      .update(events)
      .set(rowFields(input))
      .where(eq(events.id, id))
      .returning({ id: events.id });
    if (!row) throw notFound('Evento não encontrado.');
    await writeDays(tx, id, input);
    await writeKit(tx, id, input);
    await notifyEventsChanged(tx);
  }

  return { createEvent, updateEvent };
}

export type EventsAdmin = ReturnType<typeof createEventsAdmin>;
