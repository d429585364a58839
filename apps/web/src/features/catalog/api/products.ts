import type {
  Product,
  ProductCategory,
  ProductSearchQuery,
  ProductSizing,
  StockAlertInput,
} from '@passada/core/contracts/catalog';
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

// The product's read is shared with the back office's order page (lib/product-api.ts).
export { productQuery } from '../../../lib/product-api.ts';

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

/** "Avise-me quando chegar": one e-mail, once, when this colour and size come back (decision 0069). */
export function requestStockAlert(productId: number, body: StockAlertInput): Promise<{ mensagem: string }> {
  return apiFetch<{ mensagem: string }>(`/api/products/${productId}/avise-me/`, {
    method: 'POST',
    body,
    auth: false,
  });
}

/** The product's size guide and how it fits by the shop's own exchanges (decision 0070). */
export function productSizingQuery(productId: number) {
  return queryOptions({
    queryKey: ['product-sizing', productId],
    queryFn: ({ signal }) =>
      apiFetch<ProductSizing>(`/api/products/${productId}/tamanhos/`, { signal, auth: false }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
