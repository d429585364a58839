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
