import type { OrderStatus } from '@passada/core/contracts/orders';

export { ORDER_STATUS_LABEL } from '@passada/core/contracts/orders';

import type {
  AdditionOffer,
  AdditionOfferAnswer,
  OrderNote,
  OrderStatusChange,
  PackingSlip,
  PainelOrderDetail,
  PainelOrderQuery,
  PainelOrderSummary,
  PainelUnpaidCharge,
} from '@passada/core/contracts/painel-orders';
import type {
  OrderChangeQuote,
  OrderRefundPart,
  OrderRefunds,
  StaffOrderChangeRequest,
} from '@passada/core/contracts/returns';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';
import { dashboardKeys } from './dashboard.ts';

/** The button that moves an order to each status. */
export const MOVE_LABEL: Partial<Record<OrderStatus, string>> = {
  'em separação': 'Iniciar separação',
  enviado: 'Marcar como enviado',
  entregue: 'Marcar como entregue',
  cancelado: 'Cancelar e devolver o pagamento',
};

export const orderKeys = {
  all: ['painel', 'orders'] as const,
  list: (params: string) => ['painel', 'orders', params] as const,
  detail: (id: number) => ['painel', 'orders', 'detail', id] as const,
};

function searchOf(query: PainelOrderQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  return params;
}

/** The list with its current filters (every page) as a CSV; null when the server says no. */
export function fetchOrdersCsv(query: PainelOrderQuery) {
  const params = searchOf(query);
  params.delete('pagina');
  return painelFile(`/orders.csv?${params}`, 'pedidos.csv');
}

/** The lines of the list's paid orders (every page), one row per line with SKU, colour and size. */
export function fetchOrderLinesCsv(query: PainelOrderQuery) {
  const params = searchOf(query);
  params.delete('pagina');
  return painelFile(`/orders/itens.csv?${params}`, 'itens-pedidos.csv');
}

export function ordersQuery(query: PainelOrderQuery) {
  const params = searchOf(query);
  return queryOptions({
    queryKey: orderKeys.list(params.toString()),
    queryFn: ({ signal }) =>
      painelFetch<{
        results: PainelOrderSummary[];
        /** Unpaid charges, filled instead of `results` by the "aguardando pagamento" and "expirado" filters. */
        cobrancas?: PainelUnpaidCharge[];
        count: number;
        page_size: number;
      }>(`/orders/?${params}`, { signal }),
  });
}

export const useOrders = (query: PainelOrderQuery) => useQuery(ordersQuery(query));

export function orderQuery(id: number) {
  return queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: ({ signal }) => painelFetch<PainelOrderDetail>(`/orders/${id}/`, { signal }),
  });
}

export const useOrder = (id: number) => useQuery(orderQuery(id));

/** Moves an order on (or cancels it, refunding): the answer is its page; lists and the dashboard are read again. */
export function useMoveOrder(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: OrderStatusChange) =>
      painelFetch<PainelOrderDetail>(`/orders/${id}/status/`, { method: 'POST', body: change }),
    onSuccess: (detail) => {
      client.setQueryData(orderKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: orderKeys.all });
      void client.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}

/**
 * Staff's list of changes before shipping (docs/decisions/0065); the answer is the order as it now is.
 * A refusal reads the order again too (another person may have changed it: `pedido_alterado`).
 */
export function useChangeOrder(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (list: StaffOrderChangeRequest) =>
      painelFetch<PainelOrderDetail>(`/orders/${id}/alteracoes/`, { method: 'POST', body: list }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: orderKeys.all });
      void client.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}

/** What staff's list would give back, tried by the server and undone. */
export const useOrderChangeQuote = (id: number, list: StaffOrderChangeRequest, enabled: boolean) =>
  useQuery({
    queryKey: [...orderKeys.detail(id), 'change-quote', list],
    queryFn: ({ signal }) =>
      painelFetch<OrderChangeQuote>(`/orders/${id}/alteracoes/cotacao/`, {
        method: 'POST',
        body: list,
        signal,
      }),
    enabled,
    retry: false,
  });

/** Staff's proposal of an addition (docs/decisions/0087, later); the order's notes say it was sent. */
export function useOfferAddition(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (offer: AdditionOffer) =>
      painelFetch<AdditionOfferAnswer>(`/orders/${id}/acrescimo/`, { method: 'POST', body: offer }),
    onSuccess: () => client.invalidateQueries({ queryKey: orderKeys.detail(id) }),
  });
}

/** Adds a staff-only note; the order's page is read again. */
export function useAddOrderNote(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (texto: string) =>
      painelFetch<OrderNote>(`/orders/${id}/notes/`, { method: 'POST', body: { texto } }),
    onSuccess: () => client.invalidateQueries({ queryKey: orderKeys.detail(id) }),
  });
}

/** The order's packing slip: sender, recipient, items with SKU and the barcode of its number. */
export const usePackingSlip = (id: number) =>
  useQuery({
    queryKey: [...orderKeys.detail(id), 'romaneio'],
    queryFn: ({ signal }) => painelFetch<PackingSlip>(`/orders/${id}/romaneio/`, { signal }),
  });
/** The order's payment, what went back and what is left, with every refund (docs/decisions/0040). */
export const orderRefundsQuery = (id: number) =>
  queryOptions({
    queryKey: [...orderKeys.detail(id), 'refunds'] as const,
    queryFn: ({ signal }) => painelFetch<OrderRefunds>(`/orders/${id}/reembolsos/`, { signal }),
  });

export const useOrderRefunds = (id: number) => useQuery(orderRefundsQuery(id));

/** A partial refund from the order page: the order, the returns queue and the dashboard are read again. */
export function useRefundOrderPart(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OrderRefundPart) =>
      painelFetch<OrderRefunds>(`/orders/${id}/reembolsos/`, { method: 'POST', body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['painel'] }),
  });
}
