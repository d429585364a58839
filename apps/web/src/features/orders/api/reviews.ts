import type { MyReviews, ReviewInput } from '@passada/core/contracts/reviews';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiFetch } from '../../../lib/api.ts';

/** The account's reviews by order line (decision 0071). */
export const myReviewsQuery = queryOptions({
  queryKey: ['my-reviews'],
  queryFn: ({ signal }) => apiFetch<MyReviews>('/api/avaliacoes/minhas/', { signal }),
});

export const useMyReviews = (enabled: boolean) => useQuery({ ...myReviewsQuery, enabled });

/**
 * One line reviewed, with its optional photo sent right after (decision 0071, later); the account's list
 * is read again. A photo the shop refuses leaves the review sent: `photoError` says why.
 */
export function useSendReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, photo }: { body: ReviewInput; photo: File | null }) => {
      const made = await apiFetch<{ id: number; estado: 'pendente' }>('/api/avaliacoes/', {
        method: 'POST',
        body,
      });
      if (!photo) return { photoError: null };
      const form = new FormData();
      form.append('foto', photo);
      try {
        await apiFetch(`/api/avaliacoes/${made.id}/foto/`, { method: 'POST', body: form });
        return { photoError: null };
      } catch (err) {
        return { photoError: reviewErrorText(err, 'Não foi possível enviar a foto agora.') };
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: myReviewsQuery.queryKey }),
  });
}

/** The shop's refusal in its own words (a line sent back, reviewed already), or a generic one. */
export function reviewErrorText(
  err: unknown,
  fallback = 'Não foi possível enviar a avaliação agora. Tente de novo.',
): string {
  return err instanceof ApiRequestError && err.body?.detail ? err.body.detail : fallback;
}
