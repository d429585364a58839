import type {
  BibAssignment,
  BibResult,
  PainelEvent,
  PainelPhoto,
  ShirtReport,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { eventKeys } from '../../shell/api/event-lists.ts';
import { painelFetch } from '../../shell/painel-api.ts';

export function eventQuery(id: number | null) {
  return queryOptions({
    queryKey: eventKeys.detail(id),
    queryFn: ({ signal }) => painelFetch<PainelEvent>(`/events/${id}/`, { signal }),
    enabled: id !== null,
  });
}

export const useEvent = (id: number | null) => useQuery(eventQuery(id));

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
