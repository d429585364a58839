import type { BibAssignment, BibResult, ShirtReport } from '@passada/core/contracts/painel';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { registrationCategories, registrations } from '../../db/schema/index.ts';
import { badRequest, HttpError } from '../../plugins/errors.ts';
import type { EventsService } from '../events/events.service.ts';
import { byName, comparePeople } from './participants.ts';

/** What the kit desk's preparation reads of the event: its categories (by day) and its kit's sizes. */
export type BibEvents = Pick<EventsService, 'categoriesOfEvent' | 'findKitSizes'>;

/**
 * Gives bibs to the event's standing registrations, sorted by name (pt-BR): one sequence from a first
 * number (a person with races on two days keeps one number), or one range per category. Replaces
 * any earlier assignment; cancelled registrations lose theirs. The registrations are locked first,
 * so two assignments at once run one after the other.
 */
export async function assignBibs(
  tx: Tx,
  events: BibEvents,
  eventId: number,
  input: BibAssignment,
): Promise<BibResult> {
  await tx
    .select({ id: registrations.id })
    .from(registrations)
    .where(eq(registrations.eventId, eventId))
    .orderBy(asc(registrations.id))
    .for('update');
  const rows = await tx
    .select({
      rcId: registrationCategories.id,
      id: registrations.id,
      fullName: registrations.fullName,
      categoryId: registrationCategories.categoryId,
      cancelled: sql<boolean>`${registrationCategories.cancelledAt} is not null`,
    })
    .from(registrationCategories)
    .innerJoin(registrations, eq(registrations.id, registrationCategories.registrationId))
    .where(eq(registrations.eventId, eventId));
  const standing = rows.filter((r) => !r.cancelled).sort(comparePeople);
  const categories = await events.categoriesOfEvent(eventId, tx);
  const bibs = new Map<number, number>();
  if (input.modo === 'sequencia') {
    const perPerson = new Map<number, number>();
    for (const r of standing) {
      if (!perPerson.has(r.id)) perPerson.set(r.id, input.inicio + perPerson.size);
      bibs.set(r.rcId, perPerson.get(r.id)!);
    }
  } else {
    const ranges: Array<{ name: string; from: number; to: number }> = [];
    for (const [i, c] of categories.entries()) {
      const inCategory = standing.filter((r) => r.categoryId === c.id);
      const range = input.faixas.find((f) => f.categoria === c.id);
      if (!range) {
        if (inCategory.length === 0) continue;
        const detail = `Informe o primeiro número da categoria ${c.name}.`;
        throw badRequest(detail, 'validation_error', { [`faixas.${i}.inicio`]: detail });
      }
      inCategory.forEach((r, n) => {
        bibs.set(r.rcId, range.inicio + n);
      });
      if (inCategory.length)
        ranges.push({ name: c.name, from: range.inicio, to: range.inicio + inCategory.length - 1 });
    }
    if (input.faixas.some((f) => !categories.some((c) => c.id === f.categoria)))
      throw badRequest('Categoria não pertence a este evento.', 'categoria_invalida');
    const sorted = [...ranges].sort((a, b) => a.from - b.from);
    for (const [k, r] of sorted.entries()) {
      const next = sorted[k + 1];
      if (next && next.from <= r.to)
        throw new HttpError(
          409,
          `As faixas de ${r.name} (${r.from} a ${r.to}) e ${next.name} (a partir de ${next.from}) se sobrepõem: aumente o primeiro número de ${next.name}.`,
          'faixas_sobrepostas',
        );
    }
  }
  const all = rows.map((r) => r.rcId);
  if (all.length)
    await tx.update(registrationCategories).set({ bib: null }).where(inArray(registrationCategories.id, all));
  if (bibs.size) {
    const values = sql.join(
      [...bibs].map(([id, bib]) => sql`(${id}::int, ${bib}::int)`),
      sql`, `,
    );
    await tx.execute(
      sql`update ${registrationCategories} set numero_peito = v.bib from (values ${values}) as v(id, bib) where ${registrationCategories.id} = v.id`,
    );
  }
  return {
    categorias: categories.map((c) => {
      const numbers = standing.filter((r) => r.categoryId === c.id).map((r) => bibs.get(r.rcId)!);
      return {
        id: c.id,
        nome: c.name,
        quantidade: numbers.length,
        primeiro: numbers.length ? Math.min(...numbers) : null,
        ultimo: numbers.length ? Math.max(...numbers) : null,
      };
    }),
  };
}

/**
 * Shirts per size for the kit order: the standing registrations' sizes, counted, in the kit's own
 * order (a size since removed from the kit comes last).
 */
export async function shirtsBySize(db: Db, events: BibEvents, eventId: number): Promise<ShirtReport> {
  const rows = await db
    .select({ size: registrations.kitSize, n: count() })
    .from(registrations)
    .where(and(eq(registrations.eventId, eventId), isNull(registrations.cancelledAt)))
    .groupBy(registrations.kitSize);
  const kit = await events.findKitSizes(eventId, db);
  const order = (size: string) => {
    const at = kit.findIndex((k) => k.size === size);
    return at < 0 ? kit.length : at;
  };
  const tamanhos = rows
    .filter((r): r is { size: string; n: number } => r.size !== null)
    .sort((a, b) => order(a.size) - order(b.size) || byName.compare(a.size, b.size))
    .map((r) => ({ tamanho: r.size, quantidade: r.n }));
  return { tamanhos, total: tamanhos.reduce((s, t) => s + t.quantidade, 0) };
}
