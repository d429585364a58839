import type { Customer, CustomerDetail, CustomerNote } from '@passada/core/contracts/painel';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const customerKeys = {
  search: (busca: string, page: number, etiqueta: string) =>
    ['painel', 'customers', busca, page, etiqueta] as const,
  tags: ['painel', 'customers', 'tags'] as const,
  detail: (id: number | null) => ['painel', 'customer', id] as const,
};

/** A POST: the CPF searched travels in the body, never in an address that could be logged. */
export function customerSearchQuery(busca: string, page: number, etiqueta = '') {
  return queryOptions({
    queryKey: customerKeys.search(busca, page, etiqueta),
    queryFn: ({ signal }) =>
      painelFetch<{ results: Customer[]; count: number }>('/clientes/busca/', {
        method: 'POST',
        body: { busca, page, ...(etiqueta ? { etiqueta } : {}) },
        signal,
      }),
    enabled: busca.trim().length >= 2 || etiqueta !== '',
    placeholderData: keepPreviousData,
  });
}

export const useCustomerSearch = (busca: string, page: number, etiqueta = '') =>
  useQuery(customerSearchQuery(busca, page, etiqueta));

/** The tags in use, for the search's filter and the new tag's suggestions. */
export const useCustomerTags = () =>
  useQuery({
    queryKey: customerKeys.tags,
    queryFn: ({ signal }) =>
      painelFetch<{ etiqueta: string; clientes: number }[]>('/clientes/etiquetas/', { signal }),
  });

/**
 * Notes and tags (decision 0080): each change is one note or one tag, so the customer and the lists are
 * read again after it and what a colleague did meanwhile shows up.
 */
function useCustomerChange<T>(id: number, change: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () =>
      client
        .invalidateQueries({ queryKey: customerKeys.detail(id) })
        .then(() => client.invalidateQueries({ queryKey: ['painel', 'customers'] })),
  });
}

export const useAddCustomerNote = (id: number) =>
  useCustomerChange(id, (texto: string) =>
    painelFetch<CustomerNote>(`/clientes/${id}/notas/`, { method: 'POST', body: { texto } }),
  );

export const useDeleteCustomerNote = (id: number) =>
  useCustomerChange(id, (nota: number) =>
    painelFetch(`/clientes/${id}/notas/${nota}/`, { method: 'DELETE' }),
  );

export const useAddCustomerTag = (id: number) =>
  useCustomerChange(id, (etiqueta: string) =>
    painelFetch<string[]>(`/clientes/${id}/etiquetas/`, { method: 'POST', body: { etiqueta } }),
  );

export const useRemoveCustomerTag = (id: number) =>
  useCustomerChange(id, (etiqueta: string) =>
    painelFetch<string[]>(`/clientes/${id}/etiquetas/${encodeURIComponent(etiqueta)}/`, { method: 'DELETE' }),
  );

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
