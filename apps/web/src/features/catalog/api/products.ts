import type {
  Product,
  ProductCategory,
  ProductSearchQuery,
  ProductSizing,
  StockAlertInput,
} from '@passada/core/contracts/catalog';
import type { ProductReviews } from '@passada/core/contracts/reviews';
import type { ShippingQuote, ShippingQuoteRequest } from '@passada/core/contracts/shipping';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
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

/** A page of the product's published reviews, with the average (decision 0071). */
export function productReviewsQuery(productId: number, page: number) {
  return queryOptions({
    queryKey: ['product-reviews', productId, page],
    queryFn: ({ signal }) =>
      apiFetch<ProductReviews>(`/api/products/${productId}/avaliacoes/${page > 1 ? `?page=${page}` : ''}`, {
        signal,
        auth: false,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
