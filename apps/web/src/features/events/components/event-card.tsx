import type { EventSummary } from '@passada/core/contracts/events';
import { formatEventDates, formatRegistrationPrice } from '@passada/core/events';
import { Link } from 'react-router';
import { lowestPriceCents, registrationState } from '../utils/card-facts.ts';

/**
 * Poster, name, city, dates, the price a place starts at and where registration stands; the whole card
 * opens the event (docs/product.md §2, /eventos).
 */
export function EventCard({ event, eager = false }: { event: EventSummary; eager?: boolean }) {
  const from = lowestPriceCents(event);
  const state = registrationState(event);
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
          {state.open && from !== null ? (
            <p className="mt-auto pt-2">
              {from === 0 ? (
                <span className="font-bold">Gratuita</span>
              ) : (
                <>
                  a partir de <span className="text-lg font-bold">{formatRegistrationPrice(from)}</span>
                </>
              )}
            </p>
          ) : null}
          <p
            className={`text-sm font-semibold ${state.open ? 'text-green-800 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`}
          >
            {state.text}
          </p>
        </div>
      </Link>
    </li>
  );
}
