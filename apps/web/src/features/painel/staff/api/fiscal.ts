import type {
  FiscalSettings,
  FiscalSettingsSave,
  MonthNota,
  ReformRules,
} from '@passada/core/contracts/fiscal';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

export const fiscalKeys = {
  settings: ['painel', 'fiscal'] as const,
  month: (mes: string) => ['painel', 'fiscal', 'nfse-mensal', mes] as const,
  reform: ['painel', 'fiscal', 'reforma'] as const,
};

/** The tax reform's rules for the shop's regime today and the next ones (docs/decisions/0059). */
export const useReformRules = () =>
  useQuery({
    queryKey: fiscalKeys.reform,
    queryFn: ({ signal }) => painelFetch<ReformRules>('/fiscal/reforma/', { signal }),
  });

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
    onSuccess: (saved) => {
      client.setQueryData(fiscalKeys.settings, saved);
      // Another regime brings other rules.
      return client.invalidateQueries({ queryKey: fiscalKeys.reform });
    },
  });
}
