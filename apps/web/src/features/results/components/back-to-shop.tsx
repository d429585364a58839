import type { RunnerResult } from '@passada/core/contracts/results';
import { formatIsoDateBR } from '@passada/core/events';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { productQuery } from '../../../lib/product-api.ts';

const link = 'font-semibold text-brand-800 underline dark:text-brand-100';

/**
 * After the finish line, back to the shop (docs/decisions/0064, later): the event's finisher shirt with
 * the sizes the shop still has, and the next edition, when staff linked them.
 */
export function BackToShop({ links }: { links: RunnerResult['depois_da_chegada'] }) {
  const shirt = useQuery({
    ...productQuery(String(links.camisa_finisher_id ?? '')),
    enabled: links.camisa_finisher_id !== null,
  }).data;
  const next = links.proxima_edicao;
  if (!shirt && !next) return null;
  const sizes = shirt ? [...new Set(shirt.stock.filter((s) => s.quantity > 0).map((s) => s.size.name))] : [];
  return (
    <section
      aria-labelledby="depois-da-chegada"
      className="mb-6 rounded-lg bg-stone-100 p-4 dark:bg-stone-800"
    >
      <h2 id="depois-da-chegada" className="mb-3 text-xl font-bold">
        Depois da chegada
      </h2>
      {shirt ? (
        <p className="mb-2">
          Camisa finisher:{' '}
          <Link to={`/produto/${shirt.id}`} className={link}>
            {shirt.name}
          </Link>
          , {formatBRL(reaisToCents(shirt.price))}.{' '}
          {sizes.length ? `Tamanhos disponíveis: ${sizes.join(', ')}.` : 'Esgotada no momento.'}
        </p>
      ) : null}
      {next ? (
        <p>
          Próxima edição: {next.nome}, em {formatIsoDateBR(next.data)}.{' '}
          <Link to={`/eventos/register/${next.id}`} className={link}>
            Garanta a sua vaga na próxima edição
          </Link>
        </p>
      ) : null}
    </section>
  );
}
