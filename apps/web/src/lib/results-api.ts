import type { MyResults, NextEditionSignup, ResultPage, RunnerResult } from '@passada/core/contracts/results';
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from './api.ts';

/** What the results page asks: a search, filters and a page (docs/decisions/0064). */
export interface ResultSearch {
  busca?: string;
  categoria?: string;
  genero?: string;
  faixa?: string;
  page?: number;
}

/** The query string of a results search, without empty fields. */
export function resultSearchParams(search: ResultSearch): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== '' && !(key === 'page' && value === 1))
      params.set(key, String(value));
  }
  return params.toString();
}

/** One page of an event's published results (GET /api/events/:id/resultados/). */
export function resultsQuery(eventId: string, search: ResultSearch) {
  const qs = resultSearchParams(search);
  return queryOptions({
    queryKey: ['results', eventId, qs],
    queryFn: ({ signal }) =>
      apiFetch<ResultPage>(`/api/events/${encodeURIComponent(eventId)}/resultados/${qs ? `?${qs}` : ''}`, {
        signal,
        auth: false,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** One runner's result by bib (GET /api/events/:id/resultados/:numero/). */
export function runnerResultQuery(eventId: string, bib: string) {
  return queryOptions({
    queryKey: ['runner-result', eventId, bib],
    queryFn: ({ signal }) =>
      apiFetch<RunnerResult>(
        `/api/events/${encodeURIComponent(eventId)}/resultados/${encodeURIComponent(bib)}/`,
        { signal, auth: false },
      ),
    retry: false,
  });
}

/** Whether an event has published results: one line is enough (the event page's "Resultados" link). */
export function resultsPublishedQuery(eventId: string, enabled: boolean) {
  return queryOptions({
    queryKey: ['results-published', eventId],
    queryFn: ({ signal }) =>
      apiFetch<ResultPage>(`/api/events/${encodeURIComponent(eventId)}/resultados/?page_size=1`, {
        signal,
        auth: false,
      }),
    enabled,
    retry: false,
  });
}

/** The results of the registrations the signed-in account made ("Minha conta"). */
export const myResultsQuery = queryOptions({
  queryKey: ['my-results'],
  queryFn: ({ signal }) => apiFetch<MyResults>('/api/resultados/meus/', { signal }),
  retry: false,
});

/** One click from "Meus resultados": the race's runner into the next edition's lottery or waitlist. */
export function useNextEditionSignup() {
  return useMutation({
    mutationFn: (entry: number) =>
      apiFetch<NextEditionSignup>(`/api/resultados/meus/${entry}/proxima-edicao/`, { method: 'POST' }),
  });
}

/** What a refused pre-registration says: the shop's own message (the lottery's or waitlist's rules). */
export function nextEditionErrorText(err: unknown): string {
  return err instanceof ApiRequestError && err.body?.detail
    ? err.body.detail
    : 'Não foi possível fazer a pré-inscrição agora. Tente de novo.';
}
