import type { Event } from '@passada/core/contracts/events';
import { formatEventDates } from '@passada/core/events';
import { Link } from 'react-router';

/** Poster, name, city and dates; the whole card opens the event (docs/product.md §2, /eventos). */
export function EventCard({ event, eager = false }: { event: Event; eager?: boolean }) {
  return (
    <li className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md dark:border-stone-800 dark:bg-stone-900">
      <Link
        to={`/eventos/register/${event.id}`}
        className="flex h-full flex-col focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <img
          src={event.imagem_evento}
          alt=""
          width={800}
          height={500}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="aspect-[8/5] w-full bg-stone-100 object-cover dark:bg-stone-800"
        />
        <div className="flex flex-1 flex-col gap-1 p-4">
          <h2 className="text-lg font-bold leading-snug">{event.nome_evento}</h2>
          <p className="text-stone-700 dark:text-stone-300">
            {event.city}/{event.state}
          </p>
          <p className="text-sm font-semibold text-brand-800 dark:text-brand-100">
            {formatEventDates(event.start_data_evento, event.end_data_evento)}
          </p>
          {event.inscricoes_abertas ? null : (
            <p className="text-sm font-semibold text-red-700 dark:text-red-400">Inscrições encerradas</p>
          )}
        </div>
      </Link>
    </li>
  );
}
