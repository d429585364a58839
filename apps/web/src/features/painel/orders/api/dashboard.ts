import type { Dashboard } from '@passada/core/contracts/painel-orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const dashboardKeys = {
  all: ['painel', 'dashboard'] as const,
};

export function dashboardQuery() {
  return queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => painelFetch<Dashboard>('/dashboard/', { signal }),
  });
}

/** The home page's sales figures and chart. */
export const useDashboard = () => useQuery(dashboardQuery());

/**
 * How many paid orders wait for shipping, for whoever ships (`pedidos`) without the sales figures; under
 * the dashboard's key, so moving an order reads it again.
 */
export const useAwaitingShipment = () =>
  useQuery({
    queryKey: [...dashboardKeys.all, 'aguardando-envio'] as const,
    queryFn: ({ signal }) =>
      painelFetch<{ aguardando_envio: number }>('/orders/aguardando-envio/', { signal }),
  });
