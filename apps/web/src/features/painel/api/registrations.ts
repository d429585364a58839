import type { PainelRegistrationDetail, RegistrationCancel } from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from '../painel-api.ts';
import { participantKeys } from './participants.ts';

export const registrationKeys = {
  detail: (id: number) => ['painel', 'registration', id] as const,
};

export function registrationQuery(id: number) {
  return queryOptions({
    queryKey: registrationKeys.detail(id),
    queryFn: ({ signal }) => painelFetch<PainelRegistrationDetail>(`/registrations/${id}/`, { signal }),
  });
}

/** One registration's back-office page: the person, the payment and whether it can be cancelled. */
export const useRegistration = (id: number) => useQuery(registrationQuery(id));

/** Cancels a direct registration; the server returns its whole charge and answers the page again. */
export function useCancelRegistration(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RegistrationCancel) =>
      painelFetch<PainelRegistrationDetail>(`/registrations/${id}/cancel/`, { method: 'POST', body }),
    onSuccess: (detail) => {
      client.setQueryData(registrationKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: participantKeys.all });
    },
  });
}
