import type { PainelRegistrationDetail, RegistrationCancel } from '@passada/core/contracts/painel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch } from './painel-api.ts';

const registrationKey = (id: number) => ['painel', 'registration', id] as const;

/** One registration's back-office page: the person, the payment and whether it can be cancelled. */
export function useRegistration(id: number) {
  return useQuery({
    queryKey: registrationKey(id),
    queryFn: () => painelFetch<PainelRegistrationDetail>(`/registrations/${id}/`),
  });
}

/** Cancels a direct registration; the server returns its whole charge and answers the page again. */
export function useCancelRegistration(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RegistrationCancel) =>
      painelFetch<PainelRegistrationDetail>(`/registrations/${id}/cancel/`, { method: 'POST', body }),
    onSuccess: (detail) => {
      client.setQueryData(registrationKey(id), detail);
      void client.invalidateQueries({ queryKey: ['painel', 'participants'] });
    },
  });
}
