import type { Order } from '@passada/core/contracts/orders';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

export function useOrders() {
  return useQuery({
    queryKey: ['orders'],
    queryFn: async () => {
      const answer = await apiFetch<unknown>('/api/orders/');
      // Spec §8: a failed or odd answer leaves the list empty.
      return Array.isArray(answer) ? (answer as Order[]) : [];
    },
  });
}
