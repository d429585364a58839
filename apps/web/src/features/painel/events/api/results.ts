import type {
  ResultImportBody,
  ResultLinks,
  ResultPreview,
  ResultPublish,
  Timer,
  TimerBody,
} from '@passada/core/contracts/results';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** The timers and the titles of their files' columns, set once and reused by every import. */
export const useTimers = () =>
  useQuery({
    queryKey: ['painel', 'cronometragens'],
    queryFn: ({ signal }) => painelFetch<Timer[]>('/cronometragens/', { signal }),
  });

export function useSaveTimer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TimerBody) => painelFetch<Timer>('/cronometragens/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['painel', 'cronometragens'] }),
  });
}

/** A timer's file read into a preview (docs/decisions/0064): nothing is public until it is published. */
export const useImportResults = (eventId: number) =>
  useMutation({
    mutationFn: (body: ResultImportBody) =>
      painelFetch<ResultPreview>(`/events/${eventId}/resultados/importacoes/`, { method: 'POST', body }),
  });

/** Publishes a preview: the event's results (of the file's day) replaced, places computed. */
export const usePublishResults = (eventId: number) =>
  useMutation({
    mutationFn: (importId: number) =>
      painelFetch<ResultPublish>(`/events/${eventId}/resultados/importacoes/${importId}/publicar/`, {
        method: 'POST',
      }),
  });

const linksKey = (eventId: number) => ['painel', 'resultados', eventId, 'loja'] as const;

/** The event's finisher shirt and next edition, which each finisher's page and e-mail offer. */
export const useResultLinks = (eventId: number) =>
  useQuery({
    queryKey: linksKey(eventId),
    queryFn: ({ signal }) => painelFetch<ResultLinks>(`/events/${eventId}/resultados/loja/`, { signal }),
  });

export function useSaveResultLinks(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ResultLinks) =>
      painelFetch<ResultLinks>(`/events/${eventId}/resultados/loja/`, { method: 'PUT', body }),
    onSuccess: (links) => client.setQueryData(linksKey(eventId), links),
  });
}
