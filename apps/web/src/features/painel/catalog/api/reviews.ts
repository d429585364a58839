import type { PainelReview, ReviewModeration } from '@passada/core/contracts/reviews';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

const key = ['painel', 'avaliacoes'] as const;

/** The reviews in one state, oldest first (decision 0071). */
export const useReviews = (estado: PainelReview['estado']) =>
  useQuery({
    queryKey: [...key, estado],
    queryFn: ({ signal }) => painelFetch<PainelReview[]>(`/avaliacoes/?estado=${estado}`, { signal }),
  });

/** Publishes or hides a review; every state's list is read again. */
export function useModerateReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ReviewModeration }) =>
      painelFetch<{ estado: 'publicada' | 'oculta' }>(`/avaliacoes/${id}/moderacao/`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
