import type { LotteryEntry, PublicLottery } from '@passada/core/contracts/lottery';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';

/** How often the lottery box reads the lottery and the runner's entries again (the draw's result). */
export const LOTTERY_POLL_MS = 30_000;

/** The event's lottery as anyone sees it (docs/decisions/0051-lottery-opening.md): window, commitment, result. */
export function lotteryQuery(eventId: number) {
  return queryOptions({
    queryKey: ['sorteio', eventId],
    queryFn: ({ signal }) =>
      apiFetch<PublicLottery>(`/api/events/${eventId}/sorteio/`, { signal, auth: false }),
    refetchInterval: LOTTERY_POLL_MS,
  });
}

/** The signed-in account's entries in the event's lottery, each with its result. */
export function myLotteryEntriesQuery(eventId: number, token: string | null) {
  return queryOptions({
    queryKey: ['sorteio', eventId, 'minhas', token],
    queryFn: ({ signal }) => apiFetch<LotteryEntry[]>(`/api/events/${eventId}/sorteio/minhas/`, { signal }),
    refetchInterval: LOTTERY_POLL_MS,
  });
}

/** What an entry in the lottery sends: the runner's name, CPF, birth date and category. */
export interface LotteryEntryBody {
  nome_completo: string;
  cpf: string;
  data_nascimento: string;
  categoria: number;
}

/**
 * Enters a runner in the event's lottery; the lottery (its count) and the account's entries are read
 * afresh in the background, without holding the answer back.
 */
export function useEnterLottery(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LotteryEntryBody) =>
      apiFetch<LotteryEntry>(`/api/events/${eventId}/sorteio/`, { method: 'POST', body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: lotteryQuery(eventId).queryKey });
    },
  });
}
