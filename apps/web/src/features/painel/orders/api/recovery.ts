import type { RecoveryPanel, RecoverySettings } from '@passada/core/contracts/cart';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../../shell/painel-api.ts';

/** The reminders' settings and their last 30 days. */
export const recoveryQuery = () =>
  queryOptions({
    queryKey: ['painel', 'recuperacao'] as const,
    queryFn: ({ signal }) => painelFetch<RecoveryPanel>('/recuperacao/', { signal }),
  });

/** Saves the settings with the version the form was opened with (409 when someone saved meanwhile). */
export function useSaveRecovery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecoverySettings) =>
      painelFetch<RecoveryPanel>('/recuperacao/', { method: 'PUT', body }),
    onSuccess: (next) => client.setQueryData(recoveryQuery().queryKey, next),
  });
}
