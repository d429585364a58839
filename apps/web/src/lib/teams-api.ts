import { TEAM_CODE_LENGTH, type TeamPublic } from '@passada/core/contracts/teams';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

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

/**
 * The code of a captain's invite link (`?equipe=` on the events list or an event's page), kept for this
 * tab so it is still there on the registration form after choosing the distance and signing in.
 */
export function rememberTeamCode(search: string): void {
  const code = new URLSearchParams(search).get('equipe');
  if (!code) return;
  try {
    sessionStorage.setItem(KEY, normaliseTeamCode(code));
  } catch {
    // Storage refused (a private mode): the runner types the code.
  }
}

export function rememberedTeamCode(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}
