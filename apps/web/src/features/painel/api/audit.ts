import type { AuditEntry } from '@passada/core/contracts/painel';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

export const auditKeys = {
  page: (page: number) => ['painel', 'audit', page] as const,
};

export function auditQuery(page: number) {
  return queryOptions({
    queryKey: auditKeys.page(page),
    queryFn: ({ signal }) =>
      painelFetch<{ results: AuditEntry[]; count: number }>(`/audit/?page=${page}`, { signal }),
  });
}

/** Admins only: one page of who changed what, when. */
export const useAudit = (page: number) => useQuery(auditQuery(page));
