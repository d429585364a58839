import type { CheckinPreview, PainelParticipant } from '@passada/core/contracts/painel';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

/** One category's counts on the participants page (cancelled registrations not counted). */
export interface CategoryCount {
  id: number;
  nome: string;
  dia: string;
  inscritos: number;
  retirados: number;
  vagas_restantes: number;
}

export const participantKeys = {
  all: ['painel', 'participants'] as const,
  list: (eventId: number, query: string) => ['painel', 'participants', eventId, query] as const,
};

/** `query` is the filters' search string (categoria, dia, status, busca), already encoded. */
export function participantsQuery(eventId: number, query: string) {
  return queryOptions({
    queryKey: participantKeys.list(eventId, query),
    queryFn: ({ signal }) =>
      painelFetch<{ results: PainelParticipant[]; contagem: CategoryCount[] }>(
        `/events/${eventId}/participants/?${query}`,
        { signal },
      ),
  });
}

export const useParticipants = (eventId: number, query: string) =>
  useQuery(participantsQuery(eventId, query));

/** The participants as a CSV for the timing company; null when the server says no. */
export const fetchParticipantsCsv = (eventId: number, query: string) =>
  painelFile(`/events/${eventId}/participants.csv?${query}`, 'participantes.csv');

/** What identifies the registration at the desk: the scanned ticket, or the number a search found. */
export type CheckinTarget = { codigo: string } | { inscricao: number };

/** A pickup (or its undo) changes the event's counts and its participants: both are read again. */
function useCheckinMutation<V>(mutationFn: (vars: V) => Promise<PainelParticipant>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: participantKeys.all });
      void client.invalidateQueries({ queryKey: ['painel', 'events'] });
    },
  });
}

/** First step at the desk: who it is. Nothing changes on the server. */
export function useCheckinPreview(eventId: number) {
  return useMutation({
    mutationFn: (target: CheckinTarget) =>
      painelFetch<CheckinPreview>('/checkin/preview/', {
        method: 'POST',
        body: { evento: eventId, ...target },
      }),
  });
}

/** Second step, explicit: the kit goes out. */
export const useCheckin = (eventId: number) =>
  useCheckinMutation((target: CheckinTarget) =>
    painelFetch<PainelParticipant>('/checkin/', { method: 'POST', body: { evento: eventId, ...target } }),
  );

/** Undoes a pickup, naming the one undone (its time) and why. */
export const useUndoCheckin = (eventId: number) =>
  useCheckinMutation((body: { inscricao: number; retirada_em: string; motivo: string }) =>
    painelFetch<PainelParticipant>('/checkin/undo/', { method: 'POST', body: { evento: eventId, ...body } }),
  );

/** The desk's search by name, CPF or number (a button press, not typing, runs it). */
export function useCheckinSearch(eventId: number) {
  return useMutation({
    mutationFn: (busca: string) =>
      painelFetch<PainelParticipant[]>(
        `/checkin/search/?evento=${eventId}&busca=${encodeURIComponent(busca)}`,
      ),
  });
}
