import type { MessagePreviewList } from '@passada/core/contracts/painel';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

export const messageKeys = { previews: ['painel', 'messages', 'previews'] as const };

export const messagePreviewsQuery = queryOptions({
  queryKey: messageKeys.previews,
  queryFn: ({ signal }) => painelFetch<MessagePreviewList>('/mensagens/', { signal }),
  // Rendered from code and demo data: it changes only with a new version of the shop.
  staleTime: Number.POSITIVE_INFINITY,
});

/** Permission `equipe`: every message the shop sends, rendered with demo data (docs/decisions/0045). */
export const useMessagePreviews = () => useQuery(messagePreviewsQuery);
