import type { EventPriceRule, ProofUploaded } from '@passada/core/contracts/price-rules';
import type {
  Participant,
  Registration,
  RegistrationLookup,
  RegistrationTicket,
} from '@passada/core/contracts/registrations';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/**
 * Records the registration the confirmed payment paid for (`txid`: the Pix txid or the card charge
 * id); lookups in that event are then read afresh.
 */
export function useRegisterParticipant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ txid, participant }: { txid: string; participant: Participant }) =>
      apiFetch<Registration>('/api/participantes/cadastrar/', {
        method: 'POST',
        body: { txid, ...participant },
      }),
    onSuccess: (_registration, { participant }) =>
      queryClient.invalidateQueries({ queryKey: ['registration-lookup', participant.evento] }),
  });
}

/** A registration this account made for `cpf`, in this event. */
export function registrationLookupQuery(cpf: string, eventId: number) {
  return queryOptions({
    queryKey: ['registration-lookup', eventId, cpf],
    queryFn: ({ signal }) =>
      apiFetch<RegistrationLookup>(
        `/api/participantes/cpf/${encodeURIComponent(cpf)}/?evento=${encodeURIComponent(String(eventId))}`,
        { signal },
      ),
    retry: false,
  });
}

/** "Minhas inscrições": every registration this account made, newest first. */
export const accountRegistrationsQuery = queryOptions({
  queryKey: ['account-registrations'],
  queryFn: ({ signal }) => apiFetch<RegistrationLookup[]>('/api/inscricoes/', { signal }),
});

/**
 * One registration's QR ticket: "Minhas inscrições" leaves it out of the list (docs/decisions/0047),
 * so each card asks for its own.
 */
export function registrationTicketQuery(registrationId: number) {
  return queryOptions({
    queryKey: ['registration-qr', registrationId],
    queryFn: ({ signal }) =>
      apiFetch<RegistrationTicket>(`/api/inscricoes/${registrationId}/qr-code/`, { signal }),
    staleTime: 60_000,
    retry: false,
  });
}

/** The event's special prices by audience, priced for the lot in force (docs/decisions/0068). */
export function priceRulesQuery(eventId: number) {
  return queryOptions({
    queryKey: ['event-price-rules', eventId],
    queryFn: ({ signal }) =>
      apiFetch<EventPriceRule[]>(`/api/events/${eventId}/regras-preco/`, { signal, auth: false }),
  });
}

/** Sends the proof a special price asks for (a photo or a PDF); answers the token the draft names it by. */
export function useUploadProof() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('foto', file);
      return apiFetch<ProofUploaded>('/api/comprovantes/', { method: 'POST', body: form });
    },
  });
}
