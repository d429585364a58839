import type { Event } from '@passada/core/contracts/events';
import { reaisToCents } from '@passada/core/money';

/** The chosen category id per day, keyed by the day's date (one category per day, docs/product.md §4). */
export type Selection = Readonly<Record<string, number>>;

/**
 * Clicking a category: picks it for its day (replacing that day's previous pick), or unpicks it when
 * it was the one picked.
 */
export function toggleCategory(selection: Selection, day: string, categoryId: number): Selection {
  const next = { ...selection };
  if (next[day] === categoryId) delete next[day];
  else next[day] = categoryId;
  return next;
}

/** The picked category ids in day order. */
export function selectedIds(event: Event, selection: Selection): number[] {
  return event.dias_evento.flatMap((d) =>
    selection[d.data] === undefined ? [] : [selection[d.data] as number],
  );
}

/** The sum of the picked categories' prices, in centavos. */
export function selectionTotalCents(event: Event, selection: Selection): number {
  let total = 0;
  for (const day of event.dias_evento) {
    const chosen = day.categorias.find((c) => c.id === selection[day.data]);
    if (chosen) total += reaisToCents(chosen.preco_inscricao);
  }
  return total;
}
