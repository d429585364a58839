import type { Event, EventListQuery, EventPage } from '@passada/core/contracts/events';
import { isRegistrationOpen } from '@passada/core/events';
import { centsToReais } from '@passada/core/money';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { EVENT_MEDIA_FILE, EVENT_MEDIA_PREFIX, eventPoster } from './event-poster.ts';
import * as repo from './events.repository.ts';
import { createEventsAdmin } from './events-admin.ts';

export type { CategoryInfo, EventRow } from './events.repository.ts';

type Conn = Db | Tx;

export interface EventsServiceDeps {
  db: Db;
  now: () => Date;
}

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

/** Running events, their categories and the places left in each (docs/product.md §7). */
export function createEventsService(deps: EventsServiceDeps) {
  async function withDays(rows: repo.EventRow[]): Promise<Event[]> {
    const days = await repo.listDays(
      deps.db,
      rows.map((r) => r.id),
    );
    const now = deps.now();
    return rows.map((row) => toWire(row, days, now));
  }

  /** The whole list ordered by start date, or one page of it when `page` is given. */
  async function listEvents(query: EventListQuery): Promise<Event[] | EventPage> {
    if (query.page === undefined) return withDays(await repo.listEvents(deps.db));
    const size = query.page_size;
    const total = await repo.countEvents(deps.db);
    const pages = Math.max(1, Math.ceil(total / size));
    if (query.page > pages) throw new HttpError(404, 'Página não encontrada.', 'page_not_found');
    const rows = await repo.listEvents(deps.db, { limit: size, offset: (query.page - 1) * size });
    return { results: await withDays(rows), count: total, page: query.page, pages };
  }

  async function getEvent(id: number): Promise<Event> {
    const row = await repo.findEvent(deps.db, id);
    if (!row) throw notFound('Evento não encontrado.');
    const [event] = await withDays([row]);
    if (!event) throw notFound('Evento não encontrado.');
    return event;
  }

  /**
   * The poster named by `file`, drawn again from its event. A name that is no event's current image
   * answers 404, so a stale URL never gets bytes that differ from the ones it was cached with.
   */
  async function getPoster(file: string): Promise<string> {
    if (!EVENT_MEDIA_FILE.test(file)) throw notFound('Imagem não encontrada.');
    const url = `${EVENT_MEDIA_PREFIX}${file}`;
    const row = await repo.findEventByImageUrl(deps.db, url);
    if (!row) throw notFound('Imagem não encontrada.');
    const poster = eventPoster(row);
    if (poster.url !== url) throw notFound('Imagem não encontrada.');
    return poster.svg;
  }

  /** The stored event (dates, deadline) for registrations, which prices and checks against it. */
  function findEventRow(id: number, db: Conn = deps.db): Promise<repo.EventRow | undefined> {
    return repo.findEvent(db, id);
  }

  /** The given categories with their day and event (of any event: the caller checks). */
  function findCategories(ids: number[], db: Conn = deps.db): Promise<repo.CategoryInfo[]> {
    return repo.findCategories(db, ids);
  }

  /** Holds one place per category for the charge, in the caller's transaction; 409 when one is gone. */
  async function reservePlaces(tx: Tx, chargeId: number, categoryIds: number[]): Promise<void> {
    for (const categoryId of categoryIds) {
      if (!(await repo.takePlace(tx, categoryId)))
        throw conflict('Não há mais vagas nesta categoria.', 'esgotado');
      await repo.insertReservation(tx, chargeId, categoryId);
    }
  }

  /** Gives back the places the charge still holds, once. */
  async function releasePlaces(tx: Tx, chargeId: number): Promise<void> {
    await repo.releaseReservations(tx, chargeId, deps.now());
  }

  /** Every event's page and when it last changed, for the sitemap. */
  async function listPageDates(): Promise<Array<{ id: number; updatedAt: Date }>> {
    return (await repo.listEvents(deps.db)).map((r) => ({ id: r.id, updatedAt: r.updatedAt }));
  }

  return {
    listEvents,
    listPageDates,
    getEvent,
    getPoster,
    findEventRow,
    findCategories,
    reservePlaces,
    releasePlaces,
    admin: createEventsAdmin(),
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
