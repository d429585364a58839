import type { Product } from '@passada/core/contracts/catalog';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/** Spec §9: at most 5 products per gender on the home page, only those flagged aparecer_home. */
export const HOME_SECTION_SIZE = 5;

export function homeProductsQuery(category: 'feminino' | 'masculino') {
  return queryOptions({
    // Same key as the catalogue's category query, so the category page reuses this answer.
    queryKey: ['products', category],
    queryFn: ({ signal }) => apiFetch<Product[]>(`/api/products/category/${category}/`, { signal }),
    select: (products: Product[]) => products.filter((p) => p.aparecer_home).slice(0, HOME_SECTION_SIZE),
  });
}
