import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ApiRequestError } from '../../../lib/api.ts';
import { eventsPageQuery } from '../../../lib/events-api.ts';
import { useHydrated } from '../../../lib/hydration.ts';
import { rememberTeamCode } from '../../../lib/teams-api.ts';
import { EventCard } from '../components/event-card.tsx';

/** /eventos: 9 events per page, 'Página X de Y' with previous and next (docs/product.md §2, §9). */
export default function EventsPage() {
  const [params, setParams] = useSearchParams();
  const requested = Number(params.get('page') ?? '1');
  const page = Number.isInteger(requested) && requested > 0 ? requested : 1;
  const { data, isPending, isError, error } = useQuery(eventsPageQuery(page));
  // A season team's invite link (docs/decisions/0067): its code waits for the registration form.
  useEffect(() => rememberTeamCode(window.location.search), []);
  // Past the last page (an old link, fewer events now): the first page tells how many there are, and
  // the shopper lands on the last one instead of an error (docs/product.md §9).
  const beyondLast = error instanceof ApiRequestError && error.body?.code === 'page_not_found';
  const first = useQuery({ ...eventsPageQuery(1), enabled: beyondLast });
  const lastPage = beyondLast ? first.data?.pages : undefined;
  useEffect(() => {
    if (lastPage !== undefined)
      setParams(lastPage === 1 ? {} : { page: String(lastPage) }, { replace: true });
  }, [lastPage, setParams]);

  function goTo(next: number) {
    setParams(next === 1 ? {} : { page: String(next) });
    window.scrollTo({ top: 0 });
  }

  const pages = data?.pages ?? 1;
  // The server's page shows the pager; it answers once the app has taken the page over.
  const hydrated = useHydrated();
  const navButton =
    'rounded-lg border-2 border-brand-700 px-4 py-2 font-semibold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:border-stone-300 disabled:text-stone-400 disabled:hover:bg-transparent dark:text-brand-100 dark:hover:bg-stone-800';

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-8 text-3xl font-black tracking-tight">Eventos</h1>
      {isPending || beyondLast ? (
        <p role="status">Carregando eventos...</p>
      ) : isError ? (
        <p role="alert">Não foi possível carregar os eventos.</p>
      ) : data.results.length === 0 ? (
        <p>Nenhum evento encontrado.</p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {data.results.map((event, i) => (
            <EventCard key={event.id} event={event} eager={i < 3} />
          ))}
        </ul>
      )}
      {/* Only once the count is known: never "Página 1 de 1" while the list loads. */}
      {data ? (
        <nav aria-label="Paginação dos eventos" className="mt-10 flex items-center justify-center gap-4">
          <button
            type="button"
            className={navButton}
            disabled={!hydrated || page <= 1}
            onClick={() => goTo(page - 1)}
          >
            Anterior
          </button>
          <p aria-live="polite">
            Página {page} de {pages}
          </p>
          <button
            type="button"
            className={navButton}
            disabled={!hydrated || page >= pages}
            onClick={() => goTo(page + 1)}
          >
            Próxima
          </button>
        </nav>
      ) : null}
    </main>
  );
}
