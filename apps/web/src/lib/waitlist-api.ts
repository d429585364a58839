import type { EventWaitlist, WaitlistEntryWire, WaitlistJoin } from '@passada/core/contracts/waitlist';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

/** Which categories of the event have a waitlist and which are sold out (docs/decisions/0042-waitlist.md). */
export function eventWaitlistQuery(eventId: number) {
  return queryOptions({
    queryKey: ['event-waitlist', eventId],
    queryFn: ({ signal }) =>
      apiFetch<EventWaitlist>(`/api/events/${eventId}/lista-espera/`, { signal, auth: false }),
    staleTime: 0,
    retry: false,
  });
}

export const joinWaitlist = (eventId: number, body: WaitlistJoin) =>
  apiFetch<WaitlistEntryWire>(`/api/events/${eventId}/lista-espera/`, { method: 'POST', body, auth: false });

/** The runner's entry through the signed link of their e-mail. */
export function waitlistEntryQuery(token: string) {
  return queryOptions({
    queryKey: ['waitlist-entry', token],
    queryFn: ({ signal }) =>
      apiFetch<WaitlistEntryWire>(`/api/lista-espera/${encodeURIComponent(token)}/`, { signal, auth: false }),
    staleTime: 0,
    retry: false,
  });
}

export const leaveWaitlist = (token: string) =>
  apiFetch<WaitlistEntryWire>(`/api/lista-espera/${encodeURIComponent(token)}/sair/`, {
    method: 'POST',
    auth: false,
  });
