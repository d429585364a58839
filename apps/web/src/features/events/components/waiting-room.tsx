import { formatStoreDateTime } from '@passada/core/calendar';
import type { QueueTicket } from '@passada/core/contracts/opening';
import { plural } from '@passada/core/plural';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { eventQuery } from '../../../lib/events-api.ts';
import {
  announceOnce,
  countdown,
  POLL_MS,
  queueTurnQuery,
  useNow,
  useOpening,
  useQueueTicket,
} from '../../../lib/opening.ts';
import { useSession } from '../../../lib/session.tsx';

const boxClass =
  'mt-4 rounded-lg border border-brand-200 bg-brand-50 p-4 dark:border-brand-800 dark:bg-brand-950';

function minutesText(n: number): string {
  return plural(n, 'minuto', 'minutos');
}

/** The waiting runner's place said plainly: who is ahead and about how long until the turn. */
export function queueLine(ticket: Pick<QueueTicket, 'a_frente' | 'espera_minutos'>): string {
  const wait = minutesText(Math.max(1, ticket.espera_minutos ?? 0));
  const ahead = ticket.a_frente ?? 0;
  return ahead === 0
    ? `Você é a próxima pessoa da fila: sua vez começa em cerca de ${wait}.`
    : `Você está na fila: ${plural(ahead, 'pessoa', 'pessoas')} à sua frente. Sua vez começa em cerca de ${wait}.`;
}

/**
 * The event's opening on its page (docs/decisions/0046-opening-day.md): when it opens, and for a signed-in
 * runner their place in the waiting room, polled every few seconds with the signed turn. The turn belongs
 * to the account: a refresh, another tab or another device finds the same place.
 */
export function WaitingRoom({ eventId }: { eventId: number }) {
  const { token } = useSession();
  const opening = useOpening(eventId);
  const canJoin = Boolean(token && opening && opening.modo === 'fila' && opening.fase !== 'antes');
  const { ticket: joined, problem } = useQueueTicket(eventId, canJoin);
  // The place, polled every POLL_MS with the signed turn: the join's answer until the first poll, and
  // the last answer while a poll fails.
  const ticket =
    useQuery({
      ...queueTurnQuery(eventId, joined?.vez ?? null),
      initialData: joined ?? undefined,
      staleTime: POLL_MS,
    }).data ?? joined;
  // The event's answer says registrations wait until the opening: read it again once it has come, and
  // again when the turn comes (the server's copy of the event follows the opening within a second).
  const queryClient = useQueryClient();
  const phase = opening?.fase;
  const turn = ticket?.estado;
  useEffect(() => {
    if (phase === 'aberta' || turn === 'admitido')
      void queryClient.invalidateQueries({ queryKey: eventQuery(String(eventId)).queryKey });
  }, [phase, turn, eventId, queryClient]);

  const beforeOpening = Boolean(opening && Date.parse(opening.abre_em) > Date.now());
  const now = useNow(beforeOpening || ticket?.estado === 'admitido');
  const opensIn = opening && Date.parse(opening.abre_em) > now ? countdown(opening.abre_em, now) : null;

  // On a phone the box is the page's news: its heading focused when it first appears in this tab and
  // when the runner's state really changes, never on a reload or a poll that says nothing new (a screen
  // reader is not taken away from where its user is).
  const heading = useRef<HTMLHeadingElement>(null);
  const state = opening?.modo === 'fila' ? `${opening.fase}${turn ? `:${turn}` : ''}` : null;
  useEffect(() => {
    if (state && announceOnce(eventId, state)) heading.current?.focus();
  }, [state, eventId]);

  if (opening?.modo !== 'fila') return null;
  const opensAt = formatStoreDateTime(new Date(opening.abre_em));
  return (
    <section aria-labelledby="sala-de-espera" className={boxClass}>
      <h2 id="sala-de-espera" ref={heading} tabIndex={-1} className="text-lg font-bold focus:outline-none">
        Sala de espera
      </h2>
      {opensIn ? (
        <p className="mt-2 text-lg font-semibold">
          Abre em{' '}
          <span role="timer" aria-label="Tempo até a abertura das inscrições" className="tabular-nums">
            {opensIn}
          </span>
        </p>
      ) : null}
      <p className="mt-2">
        As inscrições abrem em <strong>{opensAt}</strong>, por ordem de chegada com sala de espera. Quem
        chegar a partir de {formatStoreDateTime(new Date(opening.pre_fila_abre_em))} entra na pré-fila, e na
        abertura a ordem da pré-fila é sorteada. Depois, vale a ordem de chegada. Admitido, você tem{' '}
        {minutesText(opening.minutos_da_vez)} para concluir a inscrição.
      </p>
      {!token && opening.fase !== 'antes' ? (
        <p className="mt-2">
          <Link
            to={`/login?next=${encodeURIComponent(`/eventos/register/${eventId}`)}`}
            className="font-semibold underline"
          >
            Entre na sua conta para entrar na fila
          </Link>
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="mt-2 font-semibold text-red-800 dark:text-red-200">
          {problem}
        </p>
      ) : null}
      {ticket ? (
        <div role="status" aria-live="polite" className="mt-3 font-semibold">
          {ticket.estado === 'pre_fila' ? (
            <p>Você está na pré-fila. Sua posição será sorteada na abertura.</p>
          ) : ticket.estado === 'aguardando' ? (
            <p>{queueLine(ticket)} Pode fechar ou recarregar esta página: seu lugar é mantido.</p>
          ) : ticket.estado === 'admitido' ? (
            <p>
              É a sua vez! Conclua a inscrição em {countdown(ticket.vez_expira_em!, now)} (até{' '}
              {formatStoreDateTime(new Date(ticket.vez_expira_em!))}).
            </p>
          ) : (
            <p>
              Sua vez para se inscrever terminou e não volta: cada conta tem uma vez na fila deste evento. Se
              a organização encerrar a sala de espera com vagas sobrando, as inscrições reabrem para todos
              nesta página.
            </p>
          )}
        </div>
      ) : null}
    </section>
  );
}
