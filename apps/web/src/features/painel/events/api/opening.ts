import type { PainelLotteryEntryPage, PainelLotteryEntryQuery } from '@passada/core/contracts/lottery';
import type { OpeningUpdate, PainelOpening } from '@passada/core/contracts/opening';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../../../../lib/api.ts';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

/**
 * An event's opening (docs/decisions/0046 and 0051): the waiting room or the lottery, its settings and
 * the live view, read again every few seconds while the screen is open; null when the event opens as
 * usual.
 */
export function openingQuery(eventId: number) {
  return queryOptions({
    queryKey: ['painel', 'event', eventId, 'abertura'] as const,
    queryFn: async ({ signal }) => {
      try {
        return await painelFetch<PainelOpening>(`/events/${eventId}/abertura/`, { signal });
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: 5_000,
  });
}

export const usePainelOpening = (eventId: number) => useQuery(openingQuery(eventId));

/** Saves the settings (with the version read), publishes the commitment, draws, or removes the opening. */
export function useOpeningActions(eventId: number) {
  const client = useQueryClient();
  const { queryKey } = openingQuery(eventId);
  const done = (data: PainelOpening | null) => client.setQueryData(queryKey, data);
  return {
    save: useMutation({
      mutationFn: (body: OpeningUpdate) =>
        painelFetch<PainelOpening>(`/events/${eventId}/abertura/`, { method: 'PUT', body }),
      onSuccess: done,
    }),
    commit: useMutation({
      mutationFn: () =>
        painelFetch<PainelOpening>(`/events/${eventId}/sorteio/compromisso/`, { method: 'POST' }),
      onSuccess: done,
    }),
    draw: useMutation({
      mutationFn: () => painelFetch<PainelOpening>(`/events/${eventId}/sorteio/sortear/`, { method: 'POST' }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: () => painelFetch<null>(`/events/${eventId}/abertura/`, { method: 'DELETE' }),
      onSuccess: () => done(null),
    }),
  };
}

function searchOf(query: PainelLotteryEntryQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  return params;
}

/** A page of the lottery's entries with a state and a search (read again with the live view). */
export function lotteryEntriesQuery(eventId: number, query: PainelLotteryEntryQuery) {
  const params = searchOf(query);
  return queryOptions({
    queryKey: ['painel', 'event', eventId, 'sorteio', 'inscricoes', params.toString()] as const,
    queryFn: ({ signal }) =>
      painelFetch<PainelLotteryEntryPage>(`/events/${eventId}/sorteio/inscricoes/?${params}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

export const useLotteryEntries = (eventId: number, query: PainelLotteryEntryQuery) =>
  useQuery(lotteryEntriesQuery(eventId, query));

/** The entries with the list's state and search (every page) as a CSV; null when the server says no. */
export function fetchLotteryEntriesCsv(eventId: number, query: PainelLotteryEntryQuery) {
  const params = searchOf(query);
  params.delete('pagina');
  return painelFile(`/events/${eventId}/sorteio/inscricoes.csv?${params}`, `sorteio-evento-${eventId}.csv`);
}
