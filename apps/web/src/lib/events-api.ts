import type { Event, EventPage } from '@passada/core/contracts/events';
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
