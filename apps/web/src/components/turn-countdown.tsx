import { formatStoreDateTime } from '@passada/core/calendar';
import { Link } from 'react-router';
import { countdown, useKnownTurn, useNow, useOpening } from '../lib/opening.ts';
import { useSession } from '../lib/session.tsx';

const boxClass =
  'mt-4 rounded-lg border border-brand-200 bg-brand-50 p-3 font-semibold dark:border-brand-800 dark:bg-brand-950';

/**
 * The runner's turn on the registration form of a waiting-room event: it only reads the turn the event
 * page got in this tab (never joins the queue: joining is the event page's), and while admitted counts
 * down to the turn's end; otherwise it sends the runner to the event page to follow the queue.
 */
export function TurnCountdown({ eventId }: { eventId: number }) {
  const { token } = useSession();
  const opening = useOpening(eventId);
  const queued = Boolean(token && opening && opening.modo === 'fila' && opening.fase === 'aberta');
  const ticket = useKnownTurn(eventId, queued);
  const expires = ticket?.estado === 'admitido' ? ticket.vez_expira_em : null;
  const now = useNow(expires !== null);
  if (!queued) return null;
  if (!expires)
    return (
      <p className={boxClass}>
        {ticket?.estado === 'expirada'
          ? 'Sua vez para se inscrever terminou e não volta.'
          : 'As inscrições deste evento são pela sala de espera: esta inscrição é aceita quando chegar a sua vez, ou já, com o código de uma equipe que tenha vagas reservadas pela organização.'}{' '}
        <Link to={`/eventos/register/${eventId}`} className="underline">
          Acompanhe a fila na página do evento
        </Link>
        .
      </p>
    );
  return (
    <p className={boxClass}>
      Sua vez termina em{' '}
      <span role="timer" aria-label="Tempo restante da sua vez" className="tabular-nums">
        {countdown(expires, now)}
      </span>{' '}
      (até {formatStoreDateTime(new Date(expires))}). Depois disso, a inscrição não é aceita.
    </p>
  );
}
