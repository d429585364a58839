import type { OrderStatus } from '@passada/core/contracts/orders';

export { ORDER_STATUS_LABEL } from '@passada/core/contracts/orders';

import type {
  Dashboard,
  OrderStatusChange,
  PainelOrderDetail,
  PainelOrderQuery,
  PainelOrderSummary,
} from '@passada/core/contracts/painel-orders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from './painel-api.ts';

/** The button that moves an order to each status. */
export const MOVE_LABEL: Partial<Record<OrderStatus, string>> = {
  'em separação': 'Iniciar separação',
  enviado: 'Marcar como enviado',
  entregue: 'Marcar como entregue',
  cancelado: 'Cancelar e devolver o pagamento',
};

const ordersKey = ['painel', 'orders'] as const;

export function useOrders(query: PainelOrderQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  return useQuery({
    queryKey: [...ordersKey, params.toString()],
    queryFn: () =>
      painelFetch<{ results: PainelOrderSummary[]; count: number; page_size: number }>(`/orders/?${params}`),
  });
}

export function useOrder(id: number) {
  return useQuery({
    queryKey: [...ordersKey, 'detail', id],
    queryFn: () => painelFetch<PainelOrderDetail>(`/orders/${id}/`),
  });
}

export function useMoveOrder(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: OrderStatusChange) =>
      painelFetch<PainelOrderDetail>(`/orders/${id}/status/`, { method: 'POST', body: change }),
    onSuccess: (detail) => {
      client.setQueryData([...ordersKey, 'detail', id], detail);
      void client.invalidateQueries({ queryKey: ordersKey });
    },
  });
}

export function useDashboard() {
  return useQuery({
    queryKey: ['painel', 'dashboard'],
    queryFn: () => painelFetch<Dashboard>('/dashboard/'),
  });
}
