import type { Product } from '@passada/core/contracts/catalog';
import type {
  ExchangeRequest,
  OrderAfterSale,
  OrderReturn,
  ReturnRequest,
  WithdrawalRequest,
} from '@passada/core/contracts/returns';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';
import { ordersQuery } from '../../../lib/orders-api.ts';

/** What an order still allows (withdraw, return), its deadlines and requests, computed by the server. */
export const afterSaleQuery = (orderId: number) =>
  queryOptions({
    queryKey: ['orders', orderId, 'after-sale'],
    queryFn: ({ signal }) => apiFetch<OrderAfterSale>(`/api/orders/${orderId}/pos-venda/`, { signal }),
  });

export const useAfterSale = (orderId: number, enabled = true) =>
  useQuery({ ...afterSaleQuery(orderId), enabled });

/** Both changes move the order (cancelled, refunded): the list and this order's after-sale are read again. */
function useOrderChange<T>(orderId: number, path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) =>
      apiFetch<OrderReturn>(`/api/orders/${orderId}/${path}/`, { method: 'POST', body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ordersQuery.queryKey });
    },
  });
}

export const useWithdraw = (orderId: number) => useOrderChange<WithdrawalRequest>(orderId, 'desistencia');
export const useRequestReturn = (orderId: number) => useOrderChange<ReturnRequest>(orderId, 'devolucoes');
export const useRequestExchange = (orderId: number) => useOrderChange<ExchangeRequest>(orderId, 'trocas');

/** The product of an order line, for the colours and sizes it can be exchanged for (with their stock). */
export const useExchangeProduct = (productId: number | null) =>
  useQuery({
    queryKey: ['product', String(productId)],
    queryFn: ({ signal }) => apiFetch<Product>(`/api/products/${productId}/`, { signal }),
    enabled: productId !== null,
    retry: false,
  });
