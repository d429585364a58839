import type { Home } from '@passada/core/contracts/catalog';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/**
 * The home page's banners and every featured product, in the order staff chose in the back office
 * (docs/decisions/0034); one answer, kept by the server until the catalogue changes.
 */
export function homeQuery() {
  return queryOptions({
    queryKey: ['home'],
    queryFn: ({ signal }) => apiFetch<Home>('/api/home/', { signal }),
  });
}
