import { formatStoreDateTime } from '@passada/core/calendar';
import type { OpeningStatus, QueueTicket } from '@passada/core/contracts/opening';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { apiFetch } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.tsx';

/** How often the page asks for its place (the answer costs the server no database statement). */
const POLL_MS = 5000;

const boxClass =
  'mt-6 rounded-lg border border-brand-200 bg-brand-50 p-4 dark:border-brand-800 dark:bg-brand-950';

function minutesText(n: number): string {
  return n === 1 ? '1 minuto' : `${n} minutos`;
}

/** "mm:ss" left until `iso`. */
function countdown(iso: string, now: number): string {
  const left = Math.max(0, Math.floor((Date.parse(iso) - now) / 1000));
  return `${String(Math.floor(left / 60)).padStart(2, '0')}:${String(left % 60).padStart(2, '0')}`;
}

/**
 * The event's opening on its page (docs/decisions/0046-opening-day.md): when it opens, and for a signed-in
 * runner their place in the waiting room, polled every few seconds with the signed turn. The turn belongs
 * to the account: a refresh, another tab or another device finds the same place.
 */
export function WaitingRoom({ eventId }: { eventId: number }) {
  const { token } = useSession();
  const { data: opening } = useQuery({
    queryKey: ['opening', eventId],
    queryFn: ({ signal }) =>
      apiFetch<OpeningStatus | null>(`/api/events/${eventId}/abertura/`, { signal, auth: false }),
    refetchInterval: POLL_MS,
    retry: false,
  });
  const [ticket, setTicket] = useState<QueueTicket | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const canJoin = Boolean(token && opening && opening.modo === 'fila' && opening.fase !== 'antes');

  // Joining is idempotent: the account's first place comes back on every page and device.
  useEffect(() => {
    if (!canJoin || ticket) return;
    apiFetch<QueueTicket>(`/api/events/${eventId}/fila/`, { method: 'POST' })
      .then(setTicket)
      .catch((err: Error) => setProblem(err.message));
  }, [canJoin, ticket, eventId]);

  useEffect(() => {
    if (!ticket) return;
    const timer = setInterval(() => {
      apiFetch<QueueTicket>(`/api/events/${eventId}/fila/?vez=${encodeURIComponent(ticket.vez)}`, {
        auth: false,
      })
        .then((next) => setTicket((t) => (t && JSON.stringify(t) === JSON.stringify(next) ? t : next)))
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [ticket, eventId]);

  useEffect(() => {
    if (ticket?.estado !== 'admitido') return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticket?.estado]);

  if (opening?.modo !== 'fila') return null;
  const opensAt = formatStoreDateTime(new Date(opening.abre_em));
  return (
    <section aria-labelledby="sala-de-espera" className={boxClass}>
      <h2 id="sala-de-espera" className="text-lg font-bold">
        Sala de espera
      </h2>
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
            <p>
              Você está na fila: lugar {ticket.lugar}, {ticket.a_frente} à sua frente. Espera estimada:{' '}
              {minutesText(ticket.espera_minutos ?? 0)}. Pode fechar ou recarregar esta página: seu lugar é
              mantido.
            </p>
          ) : ticket.estado === 'admitido' ? (
            <p>
              É a sua vez! Conclua a inscrição em {countdown(ticket.vez_expira_em!, now)} (até{' '}
              {formatStoreDateTime(new Date(ticket.vez_expira_em!))}).
            </p>
          ) : (
            <p>Sua vez para se inscrever terminou.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
