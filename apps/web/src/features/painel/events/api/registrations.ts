import type { StaffTransferRequest, TransferStatus } from '@passada/core/contracts/after-sale';
import type {
  PainelRegistrationDetail,
  RegistrationCancel,
  RegistrationStaffChange,
} from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { eventKeys } from '../../shell/api/event-lists.ts';
import { painelFetch } from '../../shell/painel-api.ts';
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

/** Staff change the distance and/or shirt size (docs/decisions/0060); the server answers the page again. */
export function useChangeRegistration(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RegistrationStaffChange) =>
      painelFetch<PainelRegistrationDetail>(`/registrations/${id}/alterar/`, { method: 'POST', body }),
    onSuccess: (detail) => {
      client.setQueryData(registrationKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: participantKeys.all });
      void client.invalidateQueries({ queryKey: eventKeys.detail(detail.evento.id) });
    },
  });
}

const transferKey = (id: number) => [...registrationKeys.detail(id), 'transferencia'] as const;

/** Whether the registration can be transferred now, its fee and the pending transfer (decision 0083). */
export const useRegistrationTransfer = (id: number) =>
  useQuery({
    queryKey: transferKey(id),
    queryFn: ({ signal }) => painelFetch<TransferStatus>(`/registrations/${id}/transferencia/`, { signal }),
  });

/** Staff ask the transfer for the runner, or withdraw the pending one; the answer is the new state. */
export function useStaffTransfer(id: number) {
  const client = useQueryClient();
  const done = (status: TransferStatus) => client.setQueryData(transferKey(id), status);
  return {
    request: useMutation({
      mutationFn: (body: StaffTransferRequest) =>
        painelFetch<TransferStatus>(`/registrations/${id}/transferir/`, { method: 'POST', body }),
      onSuccess: done,
    }),
    cancel: useMutation({
      mutationFn: () =>
        painelFetch<TransferStatus>(`/registrations/${id}/transferencia/cancelar/`, { method: 'POST' }),
      onSuccess: done,
    }),
  };
}
