import type { MyNotas } from '@passada/core/contracts/fiscal';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

/** The account's notas fiscais (docs/decisions/0043), by order and by registration. */
export const myNotasQuery = queryOptions({
  queryKey: ['notas'],
  queryFn: ({ signal }) => apiFetch<MyNotas>('/api/notas/', { signal }),
});

export function useMyNotas() {
  return useQuery(myNotasQuery);
}
