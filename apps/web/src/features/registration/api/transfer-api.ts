import type {
  TransferInvite,
  TransferPrice,
  TransferRequestBody,
  TransferStatus,
} from '@passada/core/contracts/after-sale';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/** Whether this registration can be transferred now, the fee and the transfer waiting for the new runner. */
export function transferStatusQuery(registrationId: number) {
  return queryOptions({
    queryKey: ['registration-transfer', registrationId],
    queryFn: ({ signal }) =>
      apiFetch<TransferStatus>(`/api/inscricoes/${registrationId}/transferencia/`, { signal }),
    staleTime: 0,
    retry: false,
  });
}

/** The holder names the new runner; the server e-mails them the link. */
export function useRequestTransfer(registrationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (to: TransferRequestBody) =>
      apiFetch<TransferStatus>(`/api/inscricoes/${registrationId}/transferir/`, { method: 'POST', body: to }),
    onSuccess: (status) => client.setQueryData(transferStatusQuery(registrationId).queryKey, status),
  });
}

/** The holder withdraws the pending transfer. */
export function useCancelTransfer(registrationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<TransferStatus>(`/api/inscricoes/${registrationId}/transferencia/cancelar/`, {
        method: 'POST',
      }),
    onSuccess: (status) => client.setQueryData(transferStatusQuery(registrationId).queryKey, status),
  });
}

/** What the new runner's link shows. */
export function transferInviteQuery(token: string) {
  return queryOptions({
    queryKey: ['transfer-invite', token],
    queryFn: ({ signal }) =>
      apiFetch<TransferInvite>(`/api/transferencias/${encodeURIComponent(token)}/`, { signal }),
    retry: false,
  });
}

/** The fee plus the 60+ difference for the new runner's birth date. */
export function transferPriceQuery(token: string, birthDate: string | null) {
  return queryOptions({
    queryKey: ['transfer-price', token, birthDate],
    queryFn: ({ signal }) =>
      apiFetch<TransferPrice>(
        `/api/transferencias/${encodeURIComponent(token)}/preco/?data_nascimento=${birthDate ?? ''}`,
        { signal },
      ),
    enabled: birthDate !== null,
    retry: false,
  });
}
