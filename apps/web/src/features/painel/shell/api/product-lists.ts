import type { PainelProduct } from '@passada/core/contracts/painel';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

/*
 * The products list more than one part of the back office chooses from (the catalogue's pages, the
 * finisher shirt of an event's results), and the products' query keys.
 */

export const productKeys = {
  all: ['painel', 'products'] as const,
  list: (search: string) => ['painel', 'products', 'list', search] as const,
  detail: (id: number) => ['painel', 'products', id] as const,
};

/** Every product, or those whose name has every word of `search` (the server searches). */
export function productsQuery(search = '') {
  const busca = search.trim();
  return queryOptions({
    queryKey: productKeys.list(busca),
    queryFn: ({ signal }) =>
      painelFetch<PainelProduct[]>(`/products/${busca ? `?${new URLSearchParams({ busca })}` : ''}`, {
        signal,
      }),
    placeholderData: (previous) => previous,
  });
}

export function useProducts(search = '') {
  return useQuery(productsQuery(search));
}
