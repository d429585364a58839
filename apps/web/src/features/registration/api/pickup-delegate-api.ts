import type { PickupDelegateRequest, PickupDelegateStatus } from '@passada/core/contracts/after-sale';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/**
 * Who may collect the kit besides the runner (docs/decisions/0063, later). `base` is the registration's
 * API path: the account's (`/api/inscricoes/{id}`) or the participant link's.
 */
export function pickupDelegateQuery(base: string) {
  return queryOptions({
    queryKey: ['pickup-delegate', base],
    queryFn: ({ signal }) => apiFetch<PickupDelegateStatus>(`${base}/retirada-autorizada/`, { signal }),
    retry: false,
  });
}

/** Authorises a person (a body) or revokes (null). */
export function useSavePickupDelegate(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PickupDelegateRequest | null) =>
      apiFetch<PickupDelegateStatus>(
        `${base}/retirada-autorizada/`,
        body ? { method: 'PUT', body } : { method: 'DELETE' },
      ),
    onSuccess: (next) => client.setQueryData(pickupDelegateQuery(base).queryKey, next),
  });
}

/** Lets the team's collector take the kit with the team's (docs/decisions/0067, later), or takes it back. */
export function useSaveTeamPickup(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (autorizada: boolean) =>
      apiFetch<PickupDelegateStatus>(`${base}/retirada-equipe/`, { method: 'PUT', body: { autorizada } }),
    onSuccess: (next) => client.setQueryData(pickupDelegateQuery(base).queryKey, next),
  });
}
