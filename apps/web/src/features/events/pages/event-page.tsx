import { dateInTimeZone, formatStoreDateTime, STORE_TIME_ZONE } from '@passada/core/calendar';
import {
  formatEventDates,
  formatIsoDateBR,
  formatRegistrationPrice,
  registrationStartToSearch,
} from '@passada/core/events';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { eventQuery } from '../../../lib/events-api.ts';
import { useHydrated } from '../../../lib/hydration.ts';
import { resultsPublishedQuery } from '../../../lib/results-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { StorageKeys, writeJson, writeString } from '../../../lib/storage.ts';
import { rememberReferral } from '../../../lib/tab-memory.ts';
import { rememberTeamCode } from '../../../lib/teams-api.ts';
import { CategoryPicker } from '../components/category-picker.tsx';
import { EventKit } from '../components/event-kit.tsx';
import { EventProgramme } from '../components/event-programme.tsx';
import { LotteryBox } from '../components/lottery-box.tsx';
import { WaitingRoom } from '../components/waiting-room.tsx';
import { WaitlistJoin } from '../components/waitlist-join.tsx';
import { type Selection, selectedIds, selectionTotalCents, toggleCategory } from '../utils/selection.ts';

// The dialogs, and Radix under them, are loaded when someone is about to open one: not in the page's
// first render, which must take the server's page over quickly (Total Blocking Time, docs/performance.md).
const WhoDialog = lazy(() => import('../components/who-dialog.tsx').then((m) => ({ default: m.WhoDialog })));
const AlertMessage = lazy(() =>
  import('../../../components/dialog.tsx').then((m) => ({ default: m.AlertMessage })),
);

const linkClass =
  'font-semibold text-brand-800 underline hover:text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:text-brand-100';

/**
 * "Resultados" once the race day has come and results are published (docs/decisions/0064); asked only
 * after the race starts, so an opening's crowd costs no extra request.
 */
function ResultsLink({ eventId, start, className }: { eventId: number; start: string; className: string }) {
  const hydrated = useHydrated();
  const started = hydrated && start <= dateInTimeZone(new Date(), STORE_TIME_ZONE);
  const { data } = useQuery(resultsPublishedQuery(String(eventId), started));
  if (!data?.publicado) return null;
  return (
    <Link to={`/eventos/resultados/${eventId}`} className={className}>
      Resultados
    </Link>
  );
}

/** /eventos/register/{id}: the event and the start of registration, up to choosing categories (docs/product.md §4). */
export default function EventPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { token } = useSession();
  const hydrated = useHydrated();
  const { data: event, isPending, isError } = useQuery(eventQuery(id));
  const [selection, setSelection] = useState<Selection>({});
  const [askWho, setAskWho] = useState(false);
  // A captain's invite link (docs/decisions/0067): its code waits for the registration form.
  useEffect(() => {
    rememberTeamCode(window.location.search);
    // A runner's referral link (docs/decisions/0086): sent with the registration, checked by the server.
    rememberReferral(window.location.search);
  }, []);
  const [whoLoaded, setWhoLoaded] = useState(false);
  // An alert's message and what follows its OK (the alert dialog of components/dialog.tsx, loaded when shown).
  const [alert, setAlert] = useState<{ message: string; then?: () => void } | null>(null);
  const showAlert = (message: string, then?: () => void) => setAlert({ message, then });

  const totalCents = event ? selectionTotalCents(event, selection) : 0;

  // The finalizar page reads these keys (docs/product.md §3 storage keys); total in reais, like the wire prices.
  useEffect(() => {
    if (!event) return;
    writeJson(StorageKeys.total, totalCents / 100);
    writeString(StorageKeys.eventName, event.nome_evento);
  }, [event, totalCents]);

  if (isPending) {
    return (
      <main className="mx-auto max-w-5xl px-4 py-10">
        <p role="status">Carregando evento...</p>
      </main>
    );
  }
  if (isError) {
    return (
      <main className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-2xl font-bold">Evento não encontrado.</h1>
        <p className="mt-4">
          <Link to="/eventos" className={linkClass}>
            Ver todos os eventos
          </Link>
        </p>
      </main>
    );
  }

  const headline = event.dias_evento[0]?.categorias[0];
  const chosen = selectedIds(event, selection);
  const here = `/eventos/register/${event.id}`;

  function choose(paraMim: boolean) {
    setAskWho(false);
    if (!token) {
      // docs/product.md §6: registration needs an account, for oneself and for others.
      if (paraMim) {
        showAlert('Você precisa estar logado para se inscrever.', () =>
          navigate(`/login?next=${encodeURIComponent(here)}`),
        );
      } else {
        showAlert('Você precisa possuir uma conta pra realizar inscrições para terceiros.');
      }
      return;
    }
    if (!event) return;
    const start = { paraMim, eventoId: event.id, categorias: chosen };
    // Router state for the next page, and the same in the query string so a reload keeps it.
    navigate(`${here}/finalizar?${registrationStartToSearch(start)}`, { state: start });
  }

  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <img
          src={event.imagem_evento}
          alt={`Cartaz do evento ${event.nome_evento}`}
          width={800}
          height={500}
          fetchPriority="high"
          className="w-full rounded-xl bg-stone-100 object-cover dark:bg-stone-800"
        />
        <div>
          <h1 className="text-3xl font-black tracking-tight">{event.nome_evento}</h1>
          {/* High on the page, so a phone shows the waiting room without scrolling. */}
          {hydrated ? <WaitingRoom eventId={event.id} /> : null}
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="font-semibold">Data</dt>
            <dd>{formatEventDates(event.start_data_evento, event.end_data_evento)}</dd>
            <dt className="font-semibold">Horário</dt>
            <dd>{event.hora_evento}</dd>
            <dt className="font-semibold">Local</dt>
            <dd>
              {event.city}/{event.state}
            </dd>
            <dt className="font-semibold">Inscrições até</dt>
            <dd>{formatIsoDateBR(event.prazo_inscricao)}</dd>
            <dt className="font-semibold">Organização</dt>
            <dd>{event.organizer}</dd>
          </dl>
          {headline ? (
            <p className="mt-4 text-lg">
              <span className="text-2xl font-black text-brand-800 dark:text-brand-100">
                {formatRegistrationPrice(reaisToCents(headline.preco_inscricao))}
              </span>{' '}
              + 1kg de alimento não perecível
            </p>
          ) : null}
          <p className="mt-4 flex flex-wrap gap-4">
            <Link to={`/eventos/regulamento/${event.id}`} className={linkClass}>
              Regulamento
            </Link>
            <Link to={`${here}/ja-me-inscrevi`} className={linkClass}>
              Já me inscrevi
            </Link>
            <ResultsLink eventId={event.id} start={event.start_data_evento} className={linkClass} />
          </p>
        </div>
      </div>

      <p className="mt-8 whitespace-pre-line leading-relaxed">{event.descricao_evento}</p>
      <EventProgramme start={event.hora_evento} days={event.dias_evento} />
      <EventKit kit={event.kit} />

      {hydrated ? (
        <LotteryBox
          eventId={event.id}
          categories={event.dias_evento.flatMap((d) =>
            d.categorias.map((c) => ({
              id: c.id,
              nome: event.dias_evento.length > 1 ? `${c.nome_categoria} (${d.data})` : c.nome_categoria,
            })),
          )}
        />
      ) : null}

      <section aria-labelledby="categorias" className="mt-8">
        <h2 id="categorias" className="mb-4 text-xl font-bold">
          Categorias
        </h2>
        {event.inscricoes_abertas ? null : event.inscricoes_abrem_em ? (
          <p
            role="status"
            className="mb-4 rounded-lg bg-amber-50 p-3 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            As inscrições abrem em {formatStoreDateTime(new Date(event.inscricoes_abrem_em))}.
          </p>
        ) : (
          <p
            role="status"
            className="mb-4 rounded-lg bg-red-50 p-3 font-semibold text-red-800 dark:bg-red-950 dark:text-red-200"
          >
            Inscrições encerradas
          </p>
        )}
        <CategoryPicker
          event={event}
          selection={selection}
          onToggle={(day, categoryId) => setSelection((s) => toggleCategory(s, day, categoryId))}
          // The server's page shows the categories; they answer once the app has taken it over.
          disabled={!hydrated}
        />
        <p className="mt-6 text-lg" aria-live="polite">
          Total: <strong>{chosen.length > 0 ? formatRegistrationPrice(totalCents) : formatBRL(0)}</strong>
        </p>
        <button
          type="button"
          disabled={chosen.length === 0 || !event.inscricoes_abertas}
          onClick={() => {
            setWhoLoaded(true);
            setAskWho(true);
          }}
          onPointerEnter={() => setWhoLoaded(true)}
          onFocus={() => setWhoLoaded(true)}
          className="mt-4 rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-stone-400"
        >
          {chosen.length === 0 ? 'Selecione uma categoria' : 'Confirmar inscrição'}
        </button>
      </section>

      <WaitlistJoin eventId={event.id} open={event.inscricoes_abertas} />

      {whoLoaded ? (
        <Suspense fallback={null}>
          <WhoDialog open={askWho} onOpenChange={setAskWho} onChoose={choose} />
        </Suspense>
      ) : null}
      {alert ? (
        <Suspense fallback={null}>
          <AlertMessage
            message={alert.message}
            onClose={() => {
              setAlert(null);
              alert.then?.();
            }}
          />
        </Suspense>
      ) : null}
    </main>
  );
}
