import type { PainelWaitlist } from '@passada/core/contracts/waitlist';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** An event's waitlists: who waits in each category, the offers and their history (docs/decisions/0042-waitlist.md). */
export function waitlistQuery(eventId: number) {
  return queryOptions({
    queryKey: ['painel', 'event', eventId, 'lista-espera'] as const,
    queryFn: ({ signal }) => painelFetch<PainelWaitlist>(`/events/${eventId}/lista-espera/`, { signal }),
  });
}

export const usePainelWaitlist = (eventId: number) => useQuery(waitlistQuery(eventId));
