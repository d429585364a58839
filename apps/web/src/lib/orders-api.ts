import type { Order } from '@passada/core/contracts/orders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

export const ordersQuery = queryOptions({
  queryKey: ['orders'],
  queryFn: async ({ signal }) => {
    const answer = await apiFetch<unknown>('/api/orders/', { signal });
    // docs/product.md §8: a failed or odd answer leaves the list empty.
    return Array.isArray(answer) ? (answer as Order[]) : [];
  },
});

export function useOrders() {
  return useQuery(ordersQuery);
}
