import type { Product } from '@passada/core/contracts/catalog';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

/**
 * A product of the shop with the stock of each colour and size (`GET /api/products/:id/`): the product
 * page's read, and the back office's choice of a colour or size to swap an order line to.
 */
export function productQuery(id: string) {
  return queryOptions({
    queryKey: ['product', id],
    queryFn: ({ signal }) => apiFetch<Product>(`/api/products/${encodeURIComponent(id)}/`, { signal }),
    retry: false,
  });
}
