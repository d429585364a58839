import type { PainelWaves, WavesBody, WavesGiven } from '@passada/core/contracts/waves';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

const wavesKey = (eventId: number) => ['painel', 'ondas', eventId] as const;

/** Each category's start waves with their caps and runners (docs/decisions/0066). */
export const useWaves = (eventId: number) =>
  useQuery({
    queryKey: wavesKey(eventId),
    queryFn: ({ signal }) => painelFetch<PainelWaves>(`/events/${eventId}/ondas/`, { signal }),
  });

/** Replaces one category's waves, in order; runners already placed keep theirs. */
export function useSaveWaves(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, body }: { categoryId: number; body: WavesBody }) =>
      painelFetch<PainelWaves>(`/events/${eventId}/categorias/${categoryId}/ondas/`, { method: 'PUT', body }),
    onSuccess: (waves) => client.setQueryData(wavesKey(eventId), waves),
  });
}

/** Gives a wave to the category's runners who have none (registered before its waves were set). */
export function useGiveMissingWaves(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: number) =>
      painelFetch<WavesGiven>(`/events/${eventId}/categorias/${categoryId}/ondas/distribuir/`, {
        method: 'POST',
      }),
    onSuccess: (given) => client.setQueryData(wavesKey(eventId), given.categorias),
  });
}
