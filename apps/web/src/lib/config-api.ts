import type { PublicConfig } from '@passada/core/contracts/config';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

/**
 * The server's public settings: which payments provider runs, and Efí's public account id. Kept
 * apart from the payments code so the demo strip on every page does not load the card and Pix code.
 */
export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: () => apiFetch<PublicConfig>('/api/config/', { auth: false }),
  staleTime: Number.POSITIVE_INFINITY,
});

export function useSimulatedPayments(): boolean {
  return useQuery(publicConfigQuery).data?.pagamentos.provedor === 'simulado';
}
