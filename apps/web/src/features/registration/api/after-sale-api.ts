import type { CancellationQuoteWire } from '@passada/core/contracts/after-sale';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/** What cancelling this registration returns now, by the event's rules. */
export function cancellationQuery(registrationId: number) {
  return queryOptions({
    queryKey: ['registration-cancellation', registrationId],
    queryFn: ({ signal }) =>
      apiFetch<CancellationQuoteWire>(`/api/inscricoes/${registrationId}/cancelamento/`, { signal }),
    staleTime: 0,
    retry: false,
  });
}

/** The runner cancels with the amount they saw; the lookups of the event are read afresh. */
export function useCancelRegistration(registrationId: number, eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (valorDevolvido: number) =>
      apiFetch<CancellationQuoteWire>(`/api/inscricoes/${registrationId}/cancelar/`, {
        method: 'POST',
        body: { valor_devolvido: valorDevolvido },
      }),
    onSuccess: (after) => {
      client.setQueryData(cancellationQuery(registrationId).queryKey, after);
      return client.invalidateQueries({ queryKey: ['registration-lookup', eventId] });
    },
  });
}
