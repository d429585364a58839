import type { Event } from '@passada/core/contracts/events';
import type { CheckinEventList } from '@passada/core/contracts/painel';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

/*
 * The events lists more than one part of the back office chooses from (the events page, check-in,
 * a coupon's races, a volunteer's events), and the events' query keys every part invalidates.
 */

/** One line of the events list, with its registrations and kits picked up. */
export interface EventSummary {
  id: number;
  nome_evento: string;
  start_data_evento: string;
  inscritos: number;
  retirados: number;
  /** Open now: before the deadline and not closed by hand. */
  inscricoes_abertas: boolean;
}

export const eventKeys = {
  all: ['painel', 'events'] as const,
  /** The event as the shop shows it (its categories), for the coupon form. */
  public: (id: number) => ['painel', 'events', id] as const,
  /** The event as the back office edits it, with its version. */
  detail: (id: number | null) => ['painel', 'event', id] as const,
};

export function eventsQuery() {
  return queryOptions({
    queryKey: eventKeys.all,
    queryFn: ({ signal }) => painelFetch<EventSummary[]>('/events/', { signal }),
  });
}

export const useEvents = () => useQuery(eventsQuery());

/** The events whose check-in the signed-in member may open (a volunteer: only those assigned). */
export function checkinEventsQuery() {
  return queryOptions({
    queryKey: [...eventKeys.all, 'checkin'] as const,
    queryFn: ({ signal }) => painelFetch<CheckinEventList>('/checkin/eventos/', { signal }),
  });
}

export const useCheckinEvents = () => useQuery(checkinEventsQuery());

/** Several events with their categories at once (the coupon form narrows a race coupon by them). */
export function useEventsDetails(ids: number[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: eventKeys.public(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => painelFetch<Event>(`/events/${id}/`, { signal }),
    })),
  });
}
