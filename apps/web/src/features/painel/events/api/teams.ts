import type { PainelTeam } from '@passada/core/contracts/teams';
import { useQuery } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';

/** An event's teams with captain and members (docs/decisions/0067-teams.md). */
export const useEventTeams = (eventId: number) =>
  useQuery({
    queryKey: ['painel', 'equipes', eventId],
    queryFn: ({ signal }) => painelFetch<PainelTeam[]>(`/events/${eventId}/equipes/`, { signal }),
  });

/** The same as a CSV, one line per member; null when the server says no. */
export const fetchTeamsCsv = (eventId: number) => painelFile(`/events/${eventId}/equipes.csv`, 'equipes.csv');
