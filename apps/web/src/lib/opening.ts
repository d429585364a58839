import type { OpeningStatus, QueueTicket } from '@passada/core/contracts/opening';
import { plural } from '@passada/core/plural';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiFetch } from './api.ts';
import { readTab, writeTab } from './opening-tab.ts';

/** How often a page asks for the opening and its place (the answer costs the server no database statement). */
export const POLL_MS = 5000;

/** "mm:ss" left until `iso`, "hh:mm:ss" from an hour, "2 dias e hh:mm:ss" from a day. */
export function countdown(iso: string, now: number): string {
  const left = Math.max(0, Math.floor((Date.parse(iso) - now) / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(left / 86_400);
  const hours = Math.floor((left % 86_400) / 3600);
  const clock = `${two(Math.floor((left % 3600) / 60))}:${two(left % 60)}`;
  if (left < 3600) return clock;
  return `${days > 0 ? `${plural(days, 'dia', 'dias')} e ` : ''}${two(hours)}:${clock}`;
}

/** The current time, read again every second while `ticking`. */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** The event's opening (docs/decisions/0046-opening-day.md), public, polled; null when it has none. */
export function useOpening(eventId: number): OpeningStatus | null | undefined {
  return useQuery({
    queryKey: ['opening', eventId],
    queryFn: ({ signal }) =>
      apiFetch<OpeningStatus | null>(`/api/events/${eventId}/abertura/`, { signal, auth: false }),
    refetchInterval: POLL_MS,
    retry: false,
  }).data;
}

/**
 * Whether the waiting room's heading takes the focus for `state` (the phase, then the turn's state once
 * known, "aberta:aguardando"): on the tab's first arrival and on a real change, never on a reload or a
 * poll that says what was already announced, nor when the turn's state only becomes known (a reload's
 * "aberta" before its "aberta:aguardando"). Remembers what it announced.
 */
export function announceOnce(eventId: number, state: string): boolean {
  const said = readTab('sala', eventId);
  if (said !== null && (said === state || said.startsWith(`${state}:`))) return false;
  writeTab('sala', eventId, state);
  return said === null || !state.startsWith(`${said}:`);
}

/**
 * The account's place in the event's waiting room once `canJoin` (the event page only): joining is
 * idempotent, so every page, tab and device gets the account's first place back and never takes a
 * second one. The turn is remembered for the tab, so the registration form reads it without joining.
 */
export function useQueueTicket(eventId: number, canJoin: boolean) {
  const [ticket, setTicket] = useState<QueueTicket | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!canJoin || ticket) return;
    apiFetch<QueueTicket>(`/api/events/${eventId}/fila/`, { method: 'POST' })
      .then(setTicket)
      .catch((err: Error) => setProblem(err.message));
  }, [canJoin, ticket, eventId]);
  const vez = ticket?.vez;
  useEffect(() => {
    if (vez) writeTab('vez', eventId, vez);
  }, [vez, eventId]);
  return { ticket, problem };
}

/**
 * The place of the signed turn `vez` in the event's waiting room, polled every POLL_MS (the answer is
 * the server's memory: no database statement). The event page's waiting room and the other pages that
 * show the turn share it.
 */
export function queueTurnQuery(eventId: number, vez: string | null) {
  return queryOptions({
    queryKey: ['queue-turn', eventId, vez],
    queryFn: ({ signal }) =>
      apiFetch<QueueTicket>(`/api/events/${eventId}/fila/?vez=${encodeURIComponent(vez ?? '')}`, {
        signal,
        auth: false,
      }),
    enabled: vez !== null,
    refetchInterval: POLL_MS,
    retry: false,
  });
}

/**
 * The turn the event page got in this tab, read (polled) without joining: a page other than the
 * waiting room only shows where the runner stands. Null when this tab holds no turn for the event.
 */
export function useKnownTurn(eventId: number, enabled: boolean): QueueTicket | null {
  const vez = enabled ? readTab('vez', eventId) : null;
  return useQuery(queueTurnQuery(eventId, vez)).data ?? null;
}
