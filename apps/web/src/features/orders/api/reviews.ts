import type { MyReviews, ReviewInput } from '@passada/core/contracts/reviews';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from '../../../lib/api.ts';

/** The account's reviews by order line (decision 0071). */
export const myReviewsQuery = queryOptions({
  queryKey: ['my-reviews'],
  queryFn: ({ signal }) => apiFetch<MyReviews>('/api/avaliacoes/minhas/', { signal }),
});

export const useMyReviews = (enabled: boolean) => useQuery({ ...myReviewsQuery, enabled });

/** One line reviewed; the account's list is read again. */
export function useSendReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewInput) =>
      apiFetch<{ id: number; estado: 'pendente' }>('/api/avaliacoes/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: myReviewsQuery.queryKey }),
  });
}

/** The shop's refusal in its own words (a line sent back, reviewed already), or a generic one. */
export function reviewErrorText(err: unknown): string {
  return err instanceof ApiRequestError && err.body?.detail
    ? err.body.detail
    : 'Não foi possível enviar a avaliação agora. Tente de novo.';
}
