import type { Participant } from '@passada/core/contracts/registrations';
import { TEAM_CODE_LENGTH, type TeamClaimView, type TeamPublic } from '@passada/core/contracts/teams';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './api.ts';
import { rememberedFromLink, rememberFromLink } from './tab-memory.ts';

/** A join code as the server reads it: spaces and dashes dropped, upper case. */
export const normaliseTeamCode = (typed: string) => typed.replace(/[\s-]/g, '').toUpperCase();

/** Which team a code names (docs/decisions/0067-teams.md): asked once the code has its 8 characters. */
export function teamByCodeQuery(typed: string) {
  const code = normaliseTeamCode(typed);
  return queryOptions({
    queryKey: ['team-code', code],
    queryFn: ({ signal }) =>
      apiFetch<TeamPublic>(`/api/equipes/codigo/${encodeURIComponent(code)}/`, { signal, auth: false }),
    enabled: code.length === TEAM_CODE_LENGTH,
    staleTime: 60_000,
    retry: false,
  });
}

const KEY = 'passada:equipe';

/** The code of a captain's invite link (`?equipe=` on the events list or an event's page), for this tab. */
export const rememberTeamCode = (search: string) =>
  rememberFromLink(search, 'equipe', KEY, normaliseTeamCode);

export const rememberedTeamCode = () => rememberedFromLink(KEY);

/** What a team's place link offers (public): the team, race, distance and places left. */
export const teamClaimQuery = (token: string) =>
  queryOptions({
    queryKey: ['team-claim', token],
    queryFn: ({ signal }) =>
      apiFetch<TeamClaimView>(`/api/equipes/vagas/${encodeURIComponent(token)}/`, { signal, auth: false }),
    retry: false,
  });

/** A member takes one of the team's places with their own data. */
export function useClaimTeamPlace(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Participant) =>
      apiFetch<{ inscricao_id: number }>(`/api/equipes/vagas/${encodeURIComponent(token)}/resgatar/`, {
        method: 'POST',
        body,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: ['team-claim', token] }),
  });
}
