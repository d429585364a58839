import type { Event, EventPage } from '@passada/core/contracts/events';
import type { PriceResponse } from '@passada/core/contracts/registrations';
import type { EventWaves } from '@passada/core/contracts/waves';
import { EVENTS_PAGE_SIZE } from '@passada/core/events';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

/** One page of the event list (GET /api/events/?page=N&page_size=9). */
export function eventsPageQuery(page: number) {
  return queryOptions({
    queryKey: ['events', 'page', page],
    queryFn: ({ signal }) =>
      apiFetch<EventPage>(`/api/events/?page=${page}&page_size=${EVENTS_PAGE_SIZE}`, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** One event with its days and categories; places change, so it is always fetched fresh. */
export function eventQuery(id: string) {
  return queryOptions({
    queryKey: ['event', id],
    queryFn: ({ signal }) => apiFetch<Event>(`/api/events/${encodeURIComponent(id)}/`, { signal }),
    staleTime: 0,
    retry: false,
  });
}

/** Each race's start waves (docs/decisions/0066): empty when the event has none. */
export function eventWavesQuery(id: number) {
  return queryOptions({
    queryKey: ['event', String(id), 'waves'],
    queryFn: ({ signal }) => apiFetch<EventWaves>(`/api/events/${id}/ondas/`, { signal, auth: false }),
    retry: false,
  });
}

/**
 * The server's price for the chosen categories and this birth date (half price for 60+), so the form
 * shows exactly what the charge will be.
 */
export function priceQuery(
  eventId: number,
  categories: number[],
  birthDate: string | null,
  /** A special price chosen (docs/decisions/0068): its race priced under it. */
  rule?: number,
  /** A team's join code, whole (docs/decisions/0074): its team price, when it has one. */
  teamCode?: string,
) {
  const params = new URLSearchParams({ categorias: categories.join(',') });
  if (birthDate) params.set('data_nascimento', birthDate);
  if (rule) params.set('regra', String(rule));
  if (teamCode) params.set('equipe', teamCode);
  return queryOptions({
    queryKey: ['event-price', eventId, categories, birthDate, rule ?? null, teamCode ?? null],
    queryFn: ({ signal }) =>
      apiFetch<PriceResponse>(`/api/events/${eventId}/preco/?${params}`, { signal, auth: false }),
    retry: false,
  });
}

/** The event's after-sale rules in plain Portuguese (docs/decisions/0035-runner-after-sale.md). */
export function afterSaleTextQuery(eventId: number) {
  return queryOptions({
    queryKey: ['event-after-sale', eventId],
    queryFn: ({ signal }) =>
      apiFetch<{ texto: string[] }>(`/api/events/${eventId}/pos-venda/`, { signal, auth: false }),
    retry: false,
  });
}
