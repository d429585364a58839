import type { Address } from '@passada/core/contracts/accounts';
import type { Order } from '@passada/core/contracts/orders';
import type { ShippingQuote } from '@passada/core/contracts/shipping';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';
import { ordersQuery } from '../../../lib/orders-api.ts';
import type { ReviewItem } from '../utils/order-draft.ts';

/** Correios' PAC and SEDEX for these items to this CEP. */
export function shippingQuoteQuery(cep: string | null, items: readonly ReviewItem[]) {
  const wire = items.map((i) => ({ product: i.product, quantity: i.quantity }));
  return queryOptions({
    queryKey: ['frete', cep, wire],
    queryFn: () =>
      apiFetch<ShippingQuote>('/api/calcular-frete/', {
        method: 'POST',
        body: { cepDestino: cep, items: wire },
        auth: false,
      }),
    enabled: cep !== null && wire.length > 0,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export function useShippingQuote(cep: string | null, items: readonly ReviewItem[]) {
  return useQuery(shippingQuoteQuery(cep, items));
}

/** Spec §3's order payload plus the paid charge's txid (contracts/orders.ts OrderCreateRequestSchema). */
export interface OrderPayload {
  txid: string;
  items: ReviewItem[];
  frete: number;
  preco_juros: number;
  order_date: string;
  metodo_pagamento: 'pix' | 'cartao' | 'gratuito';
  /** Absent when nothing ships (only event registrations). */
  address?: Pick<
    Address,
    'id' | 'street' | 'city' | 'neighborhood' | 'state' | 'zip_code' | 'full_name' | 'phone' | 'is_primary'
  >;
}

/** Records the paid order; the order history then holds one more. */
export function useSubmitOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: OrderPayload) => apiFetch<Order>('/api/orders/', { method: 'POST', body: payload }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQuery.queryKey }),
  });
}
