import type { AfterSaleSave, PainelAfterSale } from '@passada/core/contracts/after-sale';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const afterSaleKeys = {
  detail: (eventId: number) => ['painel', 'event', eventId, 'pos-venda'] as const,
};

/** The event's after-sale rules with their version (docs/decisions/0035-runner-after-sale.md). */
export function afterSaleQuery(eventId: number) {
  return queryOptions({
    queryKey: afterSaleKeys.detail(eventId),
    queryFn: ({ signal }) => painelFetch<PainelAfterSale>(`/events/${eventId}/pos-venda/`, { signal }),
  });
}

export const useAfterSale = (eventId: number) => useQuery(afterSaleQuery(eventId));

/** Saves the rules from the version read (409 `versao_desatualizada` otherwise); the answer is the cache. */
export function useSaveAfterSale(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AfterSaleSave) =>
      painelFetch<PainelAfterSale>(`/events/${eventId}/pos-venda/`, { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(afterSaleKeys.detail(eventId), saved),
  });
}
