import type { Event, EventListQuery, EventPage } from '@passada/core/contracts/events';
import { isRegistrationOpen } from '@passada/core/events';
import { centsToReais } from '@passada/core/money';
import type { AppDeps } from '../../app.ts';
import { HttpError, notFound } from '../../plugins/errors.ts';
import { EVENT_MEDIA_FILE, EVENT_MEDIA_PREFIX, eventPoster } from './event-poster.ts';
import * as repo from './events.repository.ts';

export type { EventRow } from './events.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'now'>;

/** Maps the tables to the spec's wire shape (docs/product.md §3): the one place the names change. */
function toWire(row: repo.EventRow, days: repo.DayRow[], now: Date): Event {
  return {
    id: row.id,
    nome_evento: row.name,
    organizer: row.organizer,
    imagem_evento: row.imageUrl,
    city: row.city,
    state: row.state,
    start_data_evento: row.startDate,
    end_data_evento: row.endDate,
    prazo_inscricao: row.registrationDeadline,
    hora_evento: row.time,
    descricao_evento: row.description,
    regulamento: row.regulation,
    dias_evento: days
      .filter((d) => d.eventId === row.id)
      .map((d) => ({
        data: d.date,
        categorias: d.categories.map((c) => ({
          id: c.id,
          nome_categoria: c.name,
          preco_inscricao: centsToReais(c.priceCents),
          quantidade_disponivel: c.placesLeft,
        })),
      })),
    inscricoes_abertas: isRegistrationOpen(row.registrationDeadline, now),
  };
}

async function withDays(deps: Deps, rows: repo.EventRow[]): Promise<Event[]> {
  const days = await repo.listDays(
    deps.db,
    rows.map((r) => r.id),
  );
  const now = deps.now();
  return rows.map((row) => toWire(row, days, now));
}

/** The whole list ordered by start date, or one page of it when `page` is given. */
export async function listEvents(deps: Deps, query: EventListQuery): Promise<Event[] | EventPage> {
  if (query.page === undefined) return withDays(deps, await repo.listEvents(deps.db));
  const size = query.page_size;
  const total = await repo.countEvents(deps.db);
  const pages = Math.max(1, Math.ceil(total / size));
  if (query.page > pages) throw new HttpError(404, 'Página não encontrada.', 'page_not_found');
  const rows = await repo.listEvents(deps.db, { limit: size, offset: (query.page - 1) * size });
  return { results: await withDays(deps, rows), count: total, page: query.page, pages };
}

export async function getEvent(deps: Deps, id: number): Promise<Event> {
  const row = await repo.findEvent(deps.db, id);
  if (!row) throw notFound('Evento não encontrado.');
  const [event] = await withDays(deps, [row]);
  if (!event) throw notFound('Evento não encontrado.');
  return event;
}

/**
 * The poster named by `file`, drawn again from its event. A name that is no event's current image
 * answers 404, so a stale URL never gets bytes that differ from the ones it was cached with.
 */
export async function getPoster(deps: Deps, file: string): Promise<string> {
  if (!EVENT_MEDIA_FILE.test(file)) throw notFound('Imagem não encontrada.');
  const url = `${EVENT_MEDIA_PREFIX}${file}`;
  const row = await repo.findEventByImageUrl(deps.db, url);
  if (!row) throw notFound('Imagem não encontrada.');
  const poster = eventPoster(row);
  if (poster.url !== url) throw notFound('Imagem não encontrada.');
  return poster.svg;
}

/** The stored event (dates, deadline) for the registrations module, which prices and checks against it. */
export function findEventRow(db: Deps['db'], id: number): Promise<repo.EventRow | undefined> {
  return repo.findEvent(db, id);
}
