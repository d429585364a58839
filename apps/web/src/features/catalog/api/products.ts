import type { Product, ProductCategory, ProductSearchQuery } from '@passada/core/contracts/catalog';
import type { ShippingQuote, ShippingQuoteRequest } from '@passada/core/contracts/shipping';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

export function categoryProductsQuery(category: ProductCategory | 'all') {
  return queryOptions({
    queryKey: ['products', category],
    queryFn: ({ signal }) =>
      apiFetch<Product[]>(category === 'all' ? '/api/products/' : `/api/products/category/${category}/`, {
        signal,
      }),
  });
}

export function productQuery(id: string) {
  return queryOptions({
    queryKey: ['product', id],
    queryFn: ({ signal }) => apiFetch<Product>(`/api/products/${encodeURIComponent(id)}/`, { signal }),
    retry: false,
  });
}

/** The stock check (spec §7): the product with its stock filtered to one colour and size. */
export function stockQuery(id: number, color: number, size: number) {
  return queryOptions({
    queryKey: ['stock', id, color, size],
    queryFn: async ({ signal }) => {
      const product = await apiFetch<Product>(`/api/products/${id}/?color=${color}&size=${size}`, { signal });
      const entry = product.stock.find((s) => s.color.id === color && s.size.id === size);
      // A combination missing from stock counts as sold out (spec §4).
      return entry?.quantity ?? 0;
    },
    staleTime: 0,
  });
}

export function searchProductsQuery(params: ProductSearchQuery) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return queryOptions({
    queryKey: ['products', 'search', qs],
    queryFn: ({ signal }) => apiFetch<Product[]>(`/api/products/search/${qs ? `?${qs}` : ''}`, { signal }),
  });
}

export function quoteShipping(request: ShippingQuoteRequest): Promise<ShippingQuote> {
  return apiFetch<ShippingQuote>('/api/calcular-frete/', { method: 'POST', body: request, auth: false });
}
