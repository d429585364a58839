import type {
  FiscalSettings,
  FiscalSettingsSave,
  MonthNota,
  PainelNota,
  ProductFiscal,
} from '@passada/core/contracts/fiscal';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';

export const fiscalKeys = {
  settings: ['painel', 'fiscal'] as const,
  orderNotas: (orderId: number) => ['painel', 'fiscal', 'order', orderId] as const,
  product: (productId: number) => ['painel', 'fiscal', 'product', productId] as const,
  month: (mes: string) => ['painel', 'fiscal', 'nfse-mensal', mes] as const,
};

/** A month's NFS-e per event (NFSE_GROUPING=event_month); read again while one is pending. */
export function useMonthNotas(mes: string) {
  return useQuery({
    queryKey: fiscalKeys.month(mes),
    queryFn: ({ signal }) =>
      painelFetch<MonthNota[]>(`/fiscal/nfse-mensal/?mes=${encodeURIComponent(mes)}`, { signal }),
    enabled: /^\d{4}-\d{2}$/.test(mes),
    // Read again while a nota is pending, and for a minute while none exists yet: the issuing job runs
    // just after the payment, so a page opened at once would otherwise keep "Nenhuma nota ainda".
    refetchInterval: (q) => {
      const notas = q.state.data;
      if (notas?.some((n) => n.status === 'pendente')) return 3000;
      return notas?.length === 0 && q.state.dataUpdateCount < 20 ? 3000 : false;
    },
  });
}

/** "Emitir agora": one NFS-e per event for a month already over (once per event and month). */
export function useIssueMonthNotas() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mes: string) =>
      painelFetch<MonthNota[]>('/fiscal/nfse-mensal/', { method: 'POST', body: { mes } }),
    onSuccess: (notas, mes) => client.setQueryData(fiscalKeys.month(mes), notas),
  });
}

export const fiscalSettingsQuery = queryOptions({
  queryKey: fiscalKeys.settings,
  queryFn: ({ signal }) => painelFetch<FiscalSettings>('/fiscal/', { signal }),
});
export const useFiscalSettings = () => useQuery(fiscalSettingsQuery);

export function useSaveFiscalSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FiscalSettingsSave) =>
      painelFetch<FiscalSettings>('/fiscal/', { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(fiscalKeys.settings, saved),
  });
}

/** An order's notas; read again every few seconds while one is pending (the job is at work). */
export function useOrderNotas(orderId: number) {
  return useQuery({
    queryKey: fiscalKeys.orderNotas(orderId),
    queryFn: ({ signal }) => painelFetch<PainelNota[]>(`/orders/${orderId}/notas/`, { signal }),
    // Read again while a nota is pending, and for a minute while none exists yet: the issuing job runs
    // just after the payment, so a page opened at once would otherwise keep "Nenhuma nota ainda".
    refetchInterval: (q) => {
      const notas = q.state.data;
      if (notas?.some((n) => n.status === 'pendente')) return 3000;
      return notas?.length === 0 && q.state.dataUpdateCount < 20 ? 3000 : false;
    },
  });
}

export function useRetryNota(orderId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (notaId: number) =>
      painelFetch<{ id: number }>(`/notas/${notaId}/tentar-novamente/`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: fiscalKeys.orderNotas(orderId) }),
  });
}

export function useProductFiscal(productId: number) {
  return useQuery({
    queryKey: fiscalKeys.product(productId),
    queryFn: ({ signal }) => painelFetch<ProductFiscal | null>(`/products/${productId}/fiscal/`, { signal }),
  });
}

export function useSaveProductFiscal(productId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ncm: string; origem: number }) =>
      painelFetch<ProductFiscal>(`/products/${productId}/fiscal/`, { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(fiscalKeys.product(productId), saved),
  });
}
