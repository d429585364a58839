import type { Customer, CustomerDetail } from '@passada/core/contracts/painel';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const customerKeys = {
  search: (busca: string, page: number) => ['painel', 'customers', busca, page] as const,
  detail: (id: number | null) => ['painel', 'customer', id] as const,
};

/** A POST: the CPF searched travels in the body, never in an address that could be logged. */
export function customerSearchQuery(busca: string, page: number) {
  return queryOptions({
    queryKey: customerKeys.search(busca, page),
    queryFn: ({ signal }) =>
      painelFetch<{ results: Customer[]; count: number }>('/clientes/busca/', {
        method: 'POST',
        body: { busca, page },
        signal,
      }),
    enabled: busca.trim().length >= 2,
    placeholderData: keepPreviousData,
  });
}

export const useCustomerSearch = (busca: string, page: number) => useQuery(customerSearchQuery(busca, page));

export function customerQuery(id: number | null) {
  return queryOptions({
    queryKey: customerKeys.detail(id),
    queryFn: ({ signal }) => painelFetch<CustomerDetail>(`/clientes/${id}/`, { signal }),
    enabled: id !== null,
  });
}

export const useCustomer = (id: number | null) => useQuery(customerQuery(id));

/** LGPD export: the person's data as JSON, to hand over; audited on the server. */
export const useExportCustomer = () =>
  useMutation({
    mutationFn: (id: number) =>
      painelFetch<Record<string, unknown>>(`/clientes/${id}/exportar/`, { method: 'POST' }),
  });

/** LGPD erasure on the person's request; the customer lists are read again. */
export function useEraseCustomer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, motivo }: { id: number; motivo: string }) =>
      painelFetch(`/clientes/${id}/excluir/`, { method: 'POST', body: { motivo } }),
    onSuccess: () =>
      client
        .invalidateQueries({ queryKey: ['painel', 'customer'] })
        .then(() => client.invalidateQueries({ queryKey: ['painel', 'customers'] })),
  });
}
