import type { Product } from '@passada/core/contracts/catalog';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

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
