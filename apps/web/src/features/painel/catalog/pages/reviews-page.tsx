import { type PainelReview, REVIEW_FIT_LABEL, REVIEW_STATUS_LABEL } from '@passada/core/contracts/reviews';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useModerateReview, useReviews } from '../api/reviews.ts';

/** One review: publish it, or hide it with the reason kept beside it. */
function ReviewCard({ review }: { review: PainelReview }) {
  const moderate = useModerateReview();
  const [hiding, setHiding] = useState(false);
  const [reason, setReason] = useState('');
  const hide = (e: FormEvent) => {
    e.preventDefault();
    moderate.mutate({ id: review.id, body: { acao: 'ocultar', motivo: reason } });
  };
  const label = `avaliação de ${review.autor} sobre ${review.produto}`;
  return (
    <li className="rounded-lg border border-stone-300 p-3 dark:border-stone-700">
      <article aria-label={label}>
        <p>
          <Link to={`/painel/produtos/${review.produto_id}`} className={linkClass}>
            {review.produto}
          </Link>{' '}
          · {review.estrelas} de 5 estrelas · {review.autor}
          {review.caimento ? ` · ${REVIEW_FIT_LABEL[review.caimento]}` : ''}
        </p>
        {review.texto ? <p className="mt-1 whitespace-pre-line">{review.texto}</p> : null}
        {review.foto ? (
          <img
            src={review.foto}
            alt={`Foto enviada por ${review.autor}`}
            loading="lazy"
            className="mt-2 h-auto max-h-48 w-auto max-w-full rounded"
          />
        ) : null}
        {review.motivo ? <p className="mt-1 text-sm">Motivo para ocultar: {review.motivo}</p> : null}
        <div className="mt-2 flex flex-wrap gap-2">
          {review.estado !== 'publicada' ? (
            <button
              type="button"
              className={primaryButtonClass}
              disabled={moderate.isPending}
              onClick={() => moderate.mutate({ id: review.id, body: { acao: 'publicar' } })}
            >
              Publicar
            </button>
          ) : null}
          {review.estado !== 'oculta' ? (
            <button
              type="button"
              className={secondaryButtonClass}
              aria-expanded={hiding}
              onClick={() => setHiding(!hiding)}
            >
              Ocultar
            </button>
          ) : null}
        </div>
        {hiding ? (
          <form onSubmit={hide} aria-label={`Ocultar a ${label}`} className="mt-2 flex flex-col gap-2">
            <FormField label="Motivo" required value={reason} onChange={(e) => setReason(e.target.value)} />
            <button
              type="submit"
              className={`${secondaryButtonClass} self-start`}
              disabled={moderate.isPending}
            >
              Ocultar com este motivo
            </button>
          </form>
        ) : null}
        <FormStatus message={moderate.error ? errorMessage(moderate.error) : null} tone="error" />
      </article>
    </li>
  );
}

/**
 * `/painel/avaliacoes` (docs/decisions/0071): verified reviews wait here until published; a published one
 * may be hidden later, with its reason. Only published ones count in the product's average and fit.
 */
export default function ReviewsPage() {
  const [estado, setEstado] = useState<PainelReview['estado']>('pendente');
  const reviews = useReviews(estado);
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Avaliações</h1>
      <div className="mb-4 w-60">
        <SelectField
          label="Mostrar"
          value={estado}
          onChange={(e) => setEstado(e.target.value as PainelReview['estado'])}
        >
          {(Object.keys(REVIEW_STATUS_LABEL) as Array<PainelReview['estado']>).map((k) => (
            <option key={k} value={k}>
              {REVIEW_STATUS_LABEL[k]}
            </option>
          ))}
        </SelectField>
      </div>
      {reviews.isError ? <FormStatus message={errorMessage(reviews.error)} tone="error" /> : null}
      {reviews.data?.length === 0 ? <p>Nenhuma avaliação neste estado.</p> : null}
      <ul className="flex flex-col gap-3">
        {reviews.data?.map((r) => (
          <ReviewCard key={r.id} review={r} />
        ))}
      </ul>
    </section>
  );
}
