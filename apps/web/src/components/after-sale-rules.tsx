import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { afterSaleTextQuery } from '../lib/events-api.ts';

/**
 * "Cancelamento, transferência e trocas": the organiser's rules as the runner reads them, on the
 * regulation and registration pages (docs/decisions/0035-runner-after-sale.md).
 */
export function AfterSaleRules({ eventId }: { eventId: number }) {
  const { data } = useQuery(afterSaleTextQuery(eventId));
  const titleId = useId();
  if (!data) return null;
  return (
    <section aria-labelledby={titleId} className="mt-8 text-sm leading-relaxed">
      <h2 id={titleId} className="text-lg font-semibold">
        Cancelamento, transferência e trocas
      </h2>
      <ul className="mt-2 list-disc pl-5">
        {data.texto.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
