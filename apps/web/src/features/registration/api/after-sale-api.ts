import type {
  CancellationQuoteWire,
  ChangeQuote,
  ParticipantLinkView,
  RegistrationChangesResult,
  RegistrationOperationWire,
} from '@passada/core/contracts/after-sale';
import type { RuleDifferenceQuote } from '@passada/core/contracts/price-rules';
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

/**
 * What changing the day's category `from` to `to` costs or returns by the event's rules. `base` is the
 * registration's API path: the account's (`/api/inscricoes/{id}`) or the participant's link.
 */
export function distanceChangeQuery(base: string, from: number | undefined, to: string) {
  return queryOptions({
    queryKey: ['distance-change', base, from, to],
    queryFn: ({ signal }) =>
      apiFetch<ChangeQuote>(`${base}/troca-distancia/?de=${from}&para=${to}`, { signal }),
    enabled: Boolean(from && to),
    retry: false,
  });
}

/** A change that costs nothing more, confirmed with the amount the runner saw; the events' places are read afresh. */
export function useChangeDistance(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { de: number; para: number; a_devolver: number }) =>
      apiFetch<ChangeQuote>(`${base}/trocar-distancia/`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['event'] }),
  });
}

/**
 * What a list of changes (distances and shirt together) costs or returns now, priced by the server
 * under every rule (docs/decisions/0056, later). `base` as for `distanceChangeQuery`.
 */
export function changeListQuery(base: string, operacoes: RegistrationOperationWire[]) {
  return queryOptions({
    queryKey: ['change-list', base, operacoes],
    queryFn: ({ signal }) =>
      apiFetch<ChangeQuote>(`${base}/alteracoes/cotacao/`, { method: 'POST', body: { operacoes }, signal }),
    enabled: operacoes.length > 0,
    staleTime: 0,
    retry: false,
  });
}

/** The list confirmed once, with the amount back the runner saw; the events' places are read afresh. */
export function useApplyChangeList(base: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { operacoes: RegistrationOperationWire[]; a_devolver: number }) =>
      apiFetch<RegistrationChangesResult>(`${base}/alteracoes/`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['event'] }),
  });
}

/**
 * A change paid by Pix is made by the payment itself: once it is confirmed, the events' places (the
 * categories and shirts left) are read afresh.
 */
export function useEventPlacesChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['event'] });
}

/** The shirt's new size (the size's id); the events' shirts left are read afresh. */
export function useChangeSize(registrationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tamanho: number) =>
      apiFetch<{ tamanho_camisa: string }>(`/api/inscricoes/${registrationId}/trocar-tamanho/`, {
        method: 'POST',
        body: { tamanho_camisa: tamanho },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['event'] }),
  });
}

/** The API path of the registration a participant's link opens (`/inscricoes/link/{token}`). */
export const participantLinkPath = (token: string) => `/api/inscricoes/link/${encodeURIComponent(token)}`;

/** What the participant's link shows: the registration, what cancelling returns, the transfer. */
export function participantLinkQuery(token: string) {
  return queryOptions({
    queryKey: ['participant-link', token],
    queryFn: ({ signal }) => apiFetch<ParticipantLinkView>(`${participantLinkPath(token)}/`, { signal }),
    retry: false,
  });
}

/** The link's registration read afresh, after a change made elsewhere on its page (a distance paid by Pix). */
export function useRefreshParticipantLink(token: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: participantLinkQuery(token).queryKey });
}

/**
 * One of the link's actions (`cancelar/`, `transferir/`, `transferencia/cancelar/`), posted under the
 * link's path; the link's registration is read afresh whether it succeeded or not.
 */
export function useParticipantLinkAction(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (req: { path: string; body?: unknown }) =>
      apiFetch<unknown>(`${participantLinkPath(token)}/${req.path}`, {
        method: 'POST',
        ...(req.body ? { body: req.body } : {}),
      }),
    onSettled: () => client.invalidateQueries({ queryKey: participantLinkQuery(token).queryKey }),
  });
}

/** What keeping a registration whose special price's proof was refused costs now (docs/decisions/0068). */
export const ruleDifferenceQuery = (base: string) =>
  queryOptions({
    queryKey: ['rule-difference', base],
    queryFn: ({ signal }) => apiFetch<RuleDifferenceQuote>(`${base}/diferenca-preco/`, { signal }),
    retry: false,
  });
