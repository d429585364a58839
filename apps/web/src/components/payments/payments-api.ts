import type { PublicConfig } from '@passada/core/contracts/config';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';

/** The server's public settings: which payments provider runs, and Efí's public account id. */
export const publicConfigQuery = {
  queryKey: ['config'] as const,
  queryFn: () => apiFetch<PublicConfig>('/api/config/', { auth: false }),
  staleTime: Number.POSITIVE_INFINITY,
} as const;

export function useSimulatedPayments(): boolean {
  return useQuery(publicConfigQuery).data?.pagamentos.provedor === 'simulado';
}

export function paymentsConfig(queryClient: QueryClient): Promise<PublicConfig['pagamentos']> {
  return queryClient.fetchQuery(publicConfigQuery).then((c) => c.pagamentos);
}
