import type { Order } from '@passada/core/contracts/orders';
import { REVIEW_FIT_LABEL, type ReviewFit } from '@passada/core/contracts/reviews';
import { type FormEvent, useState } from 'react';
import { FormStatus, secondaryButtonClass, TextAreaField } from '../../../components/form-field.tsx';
import { reviewErrorText, useMyReviews, useSendReview } from '../api/reviews.ts';

const STARS = [1, 2, 3, 4, 5] as const;

/** Where a line's review stands, as the buyer reads it. */
const DONE_TEXT = {
  pendente: 'avaliação enviada. Obrigado! Ela aparece na loja depois de revisada.',
  publicada: 'avaliação publicada na loja.',
  oculta: 'avaliação não publicada.',
} as const;

/** One line's review form: stars, a comment and how the size fitted. */
function ReviewForm({
  itemId,
  name,
  onPhotoError,
}: {
  itemId: number;
  name: string;
  /** The review went but its photo did not: the line's state says why, since this form goes. */
  onPhotoError: (message: string) => void;
}) {
  const send = useSendReview();
  const [stars, setStars] = useState<number | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [fit, setFit] = useState<ReviewFit | null>(null);
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(stars === null);
    if (stars === null) return;
    send.mutate(
      { body: { item_id: itemId, estrelas: stars, texto: text, caimento: fit }, photo },
      { onSuccess: ({ photoError }) => (photoError ? onPhotoError(photoError) : undefined) },
    );
  };
  if (send.isSuccess)
    return (
      <FormStatus message="Obrigado! Sua avaliação aparece na loja depois de revisada." tone="success" />
    );
  return (
    <form onSubmit={submit} aria-label={`Avaliar ${name}`} className="mt-2 flex flex-col gap-3">
      <fieldset>
        <legend className="font-semibold">Nota</legend>
        <div className="flex flex-wrap gap-3">
          {STARS.map((n) => (
            <label key={n} className="flex items-center gap-1">
              <input
                type="radio"
                name={`estrelas-${itemId}`}
                checked={stars === n}
                onChange={() => setStars(n)}
              />
              {n === 1 ? '1 estrela' : `${n} estrelas`}
            </label>
          ))}
        </div>
        {missing ? <FormStatus message="Escolha de 1 a 5 estrelas." tone="error" /> : null}
      </fieldset>
      <TextAreaField
        label="Comentário (opcional)"
        rows={3}
        maxLength={2000}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <fieldset>
        <legend className="font-semibold">Como ficou o tamanho?</legend>
        <div className="flex flex-wrap gap-3">
          {(Object.keys(REVIEW_FIT_LABEL) as ReviewFit[]).map((k) => (
            <label key={k} className="flex items-center gap-1">
              <input
                type="radio"
                name={`caimento-${itemId}`}
                checked={fit === k}
                onChange={() => setFit(k)}
              />
              {REVIEW_FIT_LABEL[k]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Foto da peça (opcional)
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,.heic"
          onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
        />
      </label>
      <button type="submit" className={`${secondaryButtonClass} self-start`} disabled={send.isPending}>
        Enviar avaliação
      </button>
      {send.isError ? <FormStatus message={reviewErrorText(send.error)} tone="error" /> : null}
    </form>
  );
}

/**
 * Reviews of a delivered order's lines (docs/decisions/0071): each line the buyer kept may be reviewed
 * once; the shop publishes it after a look. A line sent back is refused by the server, in its words.
 */
export function OrderReviews({ order }: { order: Order }) {
  const delivered = order.status === 'entregue';
  const mine = useMyReviews(delivered);
  const [open, setOpen] = useState<number | null>(null);
  const [photoErrors, setPhotoErrors] = useState<Record<number, string>>({});
  if (!delivered || !mine.data) return null;
  const lines = order.items.filter((i) => i.item_id);
  if (!lines.length) return null;
  return (
    <section
      aria-label={`Avaliações do pedido ${order.id}`}
      className="mt-4 border-t border-stone-200 pt-3 dark:border-stone-800"
    >
      <h3 className="mb-2 font-semibold">Avalie o que você comprou</h3>
      {/* A line just reviewed turns into its state: said aloud, as the form that was there is gone. */}
      <ul aria-live="polite" className="flex flex-col gap-2">
        {lines.map((item) => {
          const done = mine.data.find((r) => r.item_id === item.item_id);
          const name = `${item.product_name} (${item.product_color}, ${item.product_size})`;
          return (
            <li key={item.item_id}>
              {done ? (
                <>
                  <p className="text-sm">
                    {name}: {DONE_TEXT[done.estado]}
                  </p>
                  {photoErrors[item.item_id!] ? (
                    <FormStatus
                      message={`A foto não foi enviada: ${photoErrors[item.item_id!]}`}
                      tone="error"
                    />
                  ) : null}
                </>
              ) : (
                <>
                  <button
                    type="button"
                    className="font-semibold text-brand-800 underline dark:text-brand-100"
                    aria-expanded={open === item.item_id}
                    onClick={() => setOpen(open === item.item_id ? null : item.item_id!)}
                  >
                    Avaliar {name}
                  </button>
                  {open === item.item_id ? (
                    <ReviewForm
                      itemId={item.item_id!}
                      name={name}
                      onPhotoError={(message) => setPhotoErrors((e) => ({ ...e, [item.item_id!]: message }))}
                    />
                  ) : null}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
