import type { EventDay } from '@passada/core/contracts/events';
import { raceProgramme } from '@passada/core/events';

/** The race-day programme (docs/product.md §9), from the start time and the longest race of the event. */
export function EventProgramme({ start, days }: { start: string; days: readonly EventDay[] }) {
  const programme = raceProgramme(
    start,
    days.flatMap((d) => d.categorias.map((c) => c.nome_categoria)),
  );
  return (
    <section aria-labelledby="programacao" className="mt-8">
      <h2 id="programacao" className="text-xl font-bold">
        Programação
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
        {programme.map(([label, time]) => (
          <div key={label} className="contents">
            <dt className="font-semibold">{label}</dt>
            <dd>{time}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
