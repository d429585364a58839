import type { PainelPhoto } from '@passada/core/contracts/painel';
import { useQuery } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

/** How often an uploaded photo's state is asked again while the server resizes it in its queue. */
export const PHOTO_POLL_MS = 1000;

/** Polls an uploaded photo (`null`: none) until the server has made its resized copies or given up. */
export function usePhotoProcessing(photo: PainelPhoto | null) {
  return useQuery({
    queryKey: ['painel', 'photos', photo?.id ?? 0],
    queryFn: ({ signal }) => painelFetch<PainelPhoto>(`/photos/${photo?.id}/`, { signal }),
    enabled: photo?.status === 'processando',
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'processando' ? false : PHOTO_POLL_MS,
  });
}
