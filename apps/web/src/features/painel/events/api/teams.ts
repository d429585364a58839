import type {
  DeskTeam,
  DeskTeamList,
  DeskTeamPickup,
  PainelTeam,
  PainelTeamQuota,
  TeamQuotaInput,
} from '@passada/core/contracts/teams';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

/** An event's teams with captain and members (docs/decisions/0067-teams.md). */
export const useEventTeams = (eventId: number) =>
  useQuery({
    queryKey: ['painel', 'equipes', eventId],
    queryFn: ({ signal }) => painelFetch<PainelTeam[]>(`/events/${eventId}/equipes/`, { signal }),
  });

/** The same as a CSV, one line per member; null when the server says no. */
export const fetchTeamsCsv = (eventId: number) => painelFile(`/events/${eventId}/equipes.csv`, 'equipes.csv');

const deskTeamsKey = (eventId: number) => ['painel', 'checkin-equipes', eventId] as const;

/** The desk's list of the event's teams (permission `checkin`), asked when the desk opens the part. */
export const useDeskTeams = (eventId: number, enabled: boolean) =>
  useQuery({
    queryKey: deskTeamsKey(eventId),
    queryFn: ({ signal }) => painelFetch<DeskTeamList>(`/checkin/equipes/?evento=${eventId}`, { signal }),
    enabled,
  });

/** One team's members and which kits may go with the team's collector. */
export const useDeskTeam = (eventId: number, teamId: number | null) =>
  useQuery({
    queryKey: [...deskTeamsKey(eventId), teamId],
    queryFn: ({ signal }) =>
      painelFetch<DeskTeam>(`/checkin/equipes/${teamId}/?evento=${eventId}`, { signal }),
    enabled: teamId !== null,
  });

/** Hands the team's ready kits to its collector; the team's list and card are read again. */
export function useHandOutTeamKits(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, body }: { teamId: number; body: DeskTeamPickup }) =>
      painelFetch<{ entregues: number; equipe: DeskTeam }>(`/checkin/equipes/${teamId}/retirada/`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: deskTeamsKey(eventId) }),
  });
}

const quotasKey = (eventId: number) => ['painel', 'cotas-equipes', eventId] as const;

/** Places the organiser reserves for named teams at the opening (docs/decisions/0076). */
export const useTeamQuotas = (eventId: number) =>
  useQuery({
    queryKey: quotasKey(eventId),
    queryFn: ({ signal }) => painelFetch<PainelTeamQuota[]>(`/events/${eventId}/cotas-equipes/`, { signal }),
  });

/** Sets one team's quota of a distance; the list comes back. */
export function useSetTeamQuota(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TeamQuotaInput) =>
      painelFetch<PainelTeamQuota[]>(`/events/${eventId}/cotas-equipes/`, { method: 'PUT', body }),
    onSuccess: (list) => client.setQueryData(quotasKey(eventId), list),
  });
}
