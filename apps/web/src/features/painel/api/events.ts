import type { Event } from '@passada/core/contracts/events';
import type {
  BibAssignment,
  BibResult,
  CheckinEventList,
  PainelEvent,
  PainelPhoto,
  ShirtReport,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

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

export function eventQuery(id: number | null) {
  return queryOptions({
    queryKey: eventKeys.detail(id),
    queryFn: ({ signal }) => painelFetch<PainelEvent>(`/events/${id}/`, { signal }),
    enabled: id !== null,
  });
}

export const useEvent = (id: number | null) => useQuery(eventQuery(id));

/** Several events with their categories at once (the coupon form narrows a race coupon by them). */
export function useEventsDetails(ids: number[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: eventKeys.public(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => painelFetch<Event>(`/events/${id}/`, { signal }),
    })),
  });
}

/** The event's picture: uploaded alone, its address goes into the form. */
export function useUploadEventImage() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('foto', file);
      return painelFetch<PainelPhoto>('/events/image/', { method: 'POST', body: form });
    },
  });
}

/** Events show on every back-office page (lists, check-in, coupons, participants): all are read again. */
const invalidateAll = (client: ReturnType<typeof useQueryClient>) =>
  client.invalidateQueries({ queryKey: ['painel'] });

export function useCreateEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      painelFetch<{ id: number }>('/events/', { method: 'POST', body }),
    onSuccess: () => invalidateAll(client),
  });
}

/**
 * Replaces the event, sending the version it was read at (a stale version answers 409
 * `versao_desatualizada`); the answer becomes the event's cache.
 */
export function useUpdateEvent(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      painelFetch<PainelEvent>(`/events/${id}/`, { method: 'PUT', body }),
    onSuccess: (saved) => {
      client.setQueryData(eventKeys.detail(id), saved);
      return invalidateAll(client);
    },
  });
}

/** Copies the event for next year (dates +1 year, no registrations); answers the copy as the form edits it. */
export function useDuplicateEvent(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => painelFetch<PainelEvent>(`/events/${id}/duplicar/`, { method: 'POST', body: {} }),
    onSuccess: () => invalidateAll(client),
  });
}

/**
 * Closes (false) or reopens (true) registrations by hand. The version does not change, so the form's
 * cache only takes the new state.
 */
export function useSetRegistrationsOpen(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (abertas: boolean) =>
      painelFetch<PainelEvent>(`/events/${id}/inscricoes/`, { method: 'POST', body: { abertas } }),
    onSuccess: (saved) => {
      client.setQueryData(eventKeys.detail(id), saved);
      return invalidateAll(client);
    },
  });
}

/** Numbers the participants (bibs): one sequence or a range per category; the lists are read again. */
export function useAssignBibs(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BibAssignment) =>
      painelFetch<BibResult>(`/events/${id}/numeros-de-peito/`, { method: 'POST', body }),
    onSuccess: () => invalidateAll(client),
  });
}

/** Shirts per size of the event's standing registrations. */
export const useShirtReport = (id: number) =>
  useQuery({
    queryKey: ['painel', 'events', id, 'shirts'] as const,
    queryFn: ({ signal }) => painelFetch<ShirtReport>(`/events/${id}/camisas/`, { signal }),
  });
