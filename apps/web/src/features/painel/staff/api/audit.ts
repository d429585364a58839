import type { AuditEntry } from '@passada/core/contracts/painel';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** The audit log's filters as the page holds them; empty ones are not sent. */
export interface AuditFilters {
  staff: string;
  entity: string;
  desde: string;
  ate: string;
}

export const auditKeys = {
  page: (filters: AuditFilters, page: number) => ['painel', 'audit', filters, page] as const,
};

export function auditQuery(filters: AuditFilters, page: number) {
  const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value.trim() !== ''));
  params.set('page', String(page));
  return queryOptions({
    queryKey: auditKeys.page(filters, page),
    queryFn: ({ signal }) =>
      painelFetch<{ results: AuditEntry[]; count: number }>(`/audit/?${params}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Permission `equipe`: one page of who changed what, when, filtered on the server. */
export const useAudit = (filters: AuditFilters, page: number) => useQuery(auditQuery(filters, page));
