import type { Product } from '@passada/core/contracts/catalog';
import type {
  ExchangeRequest,
  OrderAfterSale,
  OrderChangeQuote,
  OrderChangeRequest,
  OrderReturn,
  ReturnRequest,
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

/**
 * Every change moves the order (cancelled, refunded): the list and this order's after-sale are read
 * again, after a refusal too (an order changed meanwhile answers `pedido_alterado`: its new version is
 * read, and the buyer sees what changed).
 */
function useOrderChange<T>(orderId: number, path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) =>
      apiFetch<OrderReturn>(`/api/orders/${orderId}/${path}/`, { method: 'POST', body }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ordersQuery.queryKey });
    },
  });
}

/** The withdrawal before shipping, as a list of changes with the order's version (docs/decisions/0065). */
export const useWithdraw = (orderId: number) => useOrderChange<OrderChangeRequest>(orderId, 'alteracoes');

/** What a list would give back, tried by the server and undone: shown before the buyer confirms. */
export const useWithdrawalQuote = (orderId: number, body: OrderChangeRequest, enabled: boolean) =>
  useQuery({
    queryKey: ['orders', orderId, 'change-quote', body],
    queryFn: ({ signal }) =>
      apiFetch<OrderChangeQuote>(`/api/orders/${orderId}/alteracoes/cotacao/`, {
        method: 'POST',
        body,
        signal,
      }),
    enabled,
    retry: false,
  });
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
