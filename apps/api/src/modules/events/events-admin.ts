import type { EventInputSchema } from '@passada/core/contracts/painel';
import { reaisToCents } from '@passada/core/money';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { eventCategories, eventDays, events } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import { eventPoster } from './event-poster.ts';

export type EventFields = z.output<typeof EventInputSchema>;
type Input = EventFields;

/** PostgreSQL's foreign-key violation: a category or day someone registered in cannot go. */
const FK_VIOLATION = '23503';

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
      if (
        (error as { code?: string; cause?: { code?: string } }).code === FK_VIOLATION ||
        (error as { cause?: { code?: string } }).cause?.code === FK_VIOLATION
      )
        throw conflict(
          'Há inscrições numa categoria removida: mantenha-a ou zere as vagas.',
          'categoria_com_inscritos',
        );
      throw error;
    }
  }

  async function createEvent(tx: Tx, input: Input): Promise<number> {
    const [row] = await tx.insert(events).values(rowFields(input)).returning({ id: events.id });
    await writeDays(tx, row!.id, input);
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
  }

  return { createEvent, updateEvent };
}

export type EventsAdmin = ReturnType<typeof createEventsAdmin>;
