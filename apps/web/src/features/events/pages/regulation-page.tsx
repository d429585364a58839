import type { Event } from '@passada/core/contracts/events';
import { formatIsoDateBR } from '@passada/core/events';
import { describeAgeLimits } from '@passada/core/race-rules';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { eventQuery } from '../../../lib/events-api.ts';

/** Who may run each category, from the limits the server checks (not from the regulation's text). */
function AgeLimits({ event }: { event: Event }) {
  const rows = event.dias_evento.flatMap((d) =>
    d.categorias.map((c) => ({
      key: c.id,
      text: `${c.nome_categoria} (${formatIsoDateBR(d.data)}): ${
        describeAgeLimits({ minAge: c.idade_minima ?? null, maxAge: c.idade_maxima ?? null }) ??
        'sem limite de idade'
      }`,
    })),
  );
  return (
    <section
      aria-labelledby="idades"
      className="mb-6 rounded-lg border border-stone-300 p-4 dark:border-stone-700"
    >
      <h2 id="idades" className="mb-2 text-lg font-bold">
        Idade na data da prova
      </h2>
      <ul className="list-disc pl-6">
        {rows.map((r) => (
          <li key={r.key}>{r.text}</li>
        ))}
      </ul>
    </section>
  );
}

/** The regulation is plain text: blocks separated by blank lines, "N. TÍTULO" blocks are headings. */
function RegulationText({ text }: { text: string }) {
  const blocks = text
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  return (
    <div className="flex flex-col gap-4 leading-relaxed">
      {blocks.map((block, i) => {
        const key = `${i}-${block.slice(0, 12)}`;
        if (/^(\d+\.\s|REGULAMENTO\b)/.test(block) && !block.includes('\n')) {
          return (
            <h2 key={key} className="mt-4 text-xl font-bold">
              {block}
            </h2>
          );
        }
        const lines = block.split('\n');
        if (lines.every((l) => l.startsWith('- '))) {
          return (
            <ul key={key} className="list-disc pl-6">
              {lines.map((l) => (
                <li key={l}>{l.slice(2)}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={key} className="whitespace-pre-line">
            {block}
          </p>
        );
      })}
    </div>
  );
}

/** /eventos/regulamento/{id}: the event's name and regulation (docs/product.md §2). */
export default function RegulationPage() {
  const { id = '' } = useParams();
  const { data: event, isPending, isError } = useQuery(eventQuery(id));

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      {isPending ? (
        <p role="status">Carregando evento...</p>
      ) : isError ? (
        <h1 className="text-2xl font-bold">Evento não encontrado.</h1>
      ) : (
        <article>
          <h1 className="text-3xl font-black tracking-tight">{event.nome_evento}</h1>
          <p className="mb-6 mt-2">
            <Link
              to={`/eventos/register/${event.id}`}
              className="font-semibold text-brand-800 underline dark:text-brand-100"
            >
              Voltar ao evento
            </Link>
          </p>
          <AgeLimits event={event} />
          <RegulationText text={event.regulamento} />
          <AfterSaleRules eventId={event.id} />
        </article>
      )}
    </main>
  );
}
