import type { EventSummary } from '@passada/core/contracts/events';
import type { MyTeam, TeamCreate, TeamInviteView } from '@passada/core/contracts/teams';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/** The teams the account captains, with who joined (docs/decisions/0067-teams.md). */
export const myTeamsQuery = queryOptions({
  queryKey: ['my-teams'],
  queryFn: ({ signal }) => apiFetch<MyTeam[]>('/api/equipes/', { signal }),
  retry: false,
});

/** The events a team can be made for: those still taking registrations. */
export const openEventsQuery = queryOptions({
  queryKey: ['events', 'all'],
  queryFn: ({ signal }) => apiFetch<EventSummary[]>('/api/events/', { signal, auth: false }),
  select: (events) => events.filter((e) => e.inscricoes_abertas),
  retry: false,
});

export function useCreateTeam() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TeamCreate) => apiFetch<MyTeam>('/api/equipes/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: myTeamsQuery.queryKey }),
  });
}

export function useSetTeamOpen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, aberta }: { id: number; aberta: boolean }) =>
      apiFetch<MyTeam>(`/api/equipes/${id}/aberta/`, { method: 'PUT', body: { aberta } }),
    onSuccess: () => client.invalidateQueries({ queryKey: myTeamsQuery.queryKey }),
  });
}

/** The captain closes a purchase of places early (docs/decisions/0073). */
export function useCloseTeamPlaces() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ team, batch }: { team: number; batch: number }) =>
      apiFetch<MyTeam>(`/api/equipes/${team}/vagas/${batch}/encerrar/`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: myTeamsQuery.queryKey }),
  });
}

/** Reads the captain's teams again (a purchase of places was paid). */
export function useRefreshTeams() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: myTeamsQuery.queryKey });
}

/** The captain's list of members (a CSV's text) sent: each person invited by e-mail (docs/decisions/0075). */
export function useImportInvites() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ team, arquivo }: { team: number; arquivo: string }) =>
      apiFetch<{ convidados: number; ja_convidados: number }>(`/api/equipes/${team}/convites/`, {
        method: 'POST',
        body: { arquivo },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: myTeamsQuery.queryKey }),
  });
}

/** An invitation as the person invited sees it (the e-mail's link is the access). */
export const teamInviteQuery = (token: string) =>
  queryOptions({
    queryKey: ['team-invite', token],
    queryFn: ({ signal }) =>
      apiFetch<TeamInviteView>(`/api/equipes/convite/${encodeURIComponent(token)}/`, { signal, auth: false }),
    retry: false,
  });

export function useAnswerInvite(token: string) {
  return useMutation({
    mutationFn: (aceito: boolean) =>
      apiFetch<TeamInviteView | null>(`/api/equipes/convite/${encodeURIComponent(token)}/resposta/`, {
        method: 'POST',
        body: { aceito },
        auth: false,
      }),
  });
}
