import { formatIsoDateBR } from '@passada/core/calendar';
import { REVIEW_FIT_LABEL } from '@passada/core/contracts/reviews';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { secondaryButtonClass } from '../../../components/form-field.tsx';
import { productReviewsQuery } from '../api/products.ts';

const starsText = (n: number) => `${'★'.repeat(n)}${'☆'.repeat(5 - n)}`;
const one = (n: number) => n.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * The product's published reviews (docs/decisions/0071): only buyers who received and kept the piece
 * write them, and the shop publishes them after a look. The average, how many, how the size fitted.
 */
export function ProductReviews({ productId }: { productId: number }) {
  const [page, setPage] = useState(1);
  const { data } = useQuery(productReviewsQuery(productId, page));
  return (
    <section aria-labelledby="avaliacoes" className="md:col-span-2">
      <h2 id="avaliacoes" className="mb-2 text-xl font-bold">
        Avaliações
      </h2>
      {!data ? null : data.total === 0 ? (
        <p>Ainda não há avaliações de quem comprou esta peça.</p>
      ) : (
        <>
          <p className="mb-1">
            <span aria-hidden="true" className="text-brand-700">
              {starsText(Math.round(data.media ?? 0))}{' '}
            </span>
            <strong>{one(data.media ?? 0)} de 5</strong>,{' '}
            {data.total === 1 ? '1 avaliação' : `${data.total} avaliações`} de quem comprou.
          </p>
          <p className="mb-3 text-sm text-stone-700 dark:text-stone-300">
            Tamanho: {data.caimento.pequeno} {REVIEW_FIT_LABEL.pequeno.toLowerCase()},{' '}
            {data.caimento.no_tamanho} {REVIEW_FIT_LABEL.no_tamanho.toLowerCase()}, {data.caimento.grande}{' '}
            {REVIEW_FIT_LABEL.grande.toLowerCase()}.
          </p>
          <ul className="flex flex-col gap-3">
            {data.avaliacoes.map((r) => (
              <li key={r.id} className="rounded-lg border border-stone-200 p-3 dark:border-stone-800">
                <p>
                  <span role="img" aria-label={`${r.estrelas} de 5 estrelas`} className="text-brand-700">
                    {starsText(r.estrelas)}
                  </span>{' '}
                  <strong>{r.autor}</strong>, {formatIsoDateBR(r.data)}
                  {r.caimento ? ` · ${REVIEW_FIT_LABEL[r.caimento]}` : ''}
                </p>
                {r.texto ? <p className="mt-1 whitespace-pre-line">{r.texto}</p> : null}
                {r.foto ? (
                  <img
                    src={r.foto}
                    alt={`Foto de ${r.autor} com a peça`}
                    loading="lazy"
                    decoding="async"
                    width={800}
                    height={600}
                    className="mt-2 h-auto max-h-64 w-auto max-w-full rounded"
                  />
                ) : null}
              </li>
            ))}
          </ul>
          {data.pages > 1 ? (
            <div className="mt-3 flex gap-2">
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={page <= 1}
                onClick={() => setPage(page - 1)}
              >
                Avaliações mais recentes
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={page >= data.pages}
                onClick={() => setPage(page + 1)}
              >
                Avaliações anteriores
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
