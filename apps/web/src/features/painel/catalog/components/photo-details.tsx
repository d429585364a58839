import type { PainelProduct } from '@passada/core/contracts/painel';
import { type FormEvent, useId, useState } from 'react';
import { inputClass, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useUpdatePhoto } from '../api/products.ts';

type Image = PainelProduct['images'][number];

/** A photo's alt text (what the shop's `<img alt>` says) and the colour it shows, saved together. */
export function PhotoDetails({
  product,
  image,
  number,
  onSaved,
}: {
  product: PainelProduct;
  image: Image;
  /** The photo's place in the list, which names it ("foto 2"). */
  number: number;
  onSaved(saved: Image): void;
}) {
  const update = useUpdatePhoto(product.id);
  const [alt, setAlt] = useState(image.alt);
  const [colorId, setColorId] = useState(image.color_id);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const id = useId();
  const colors = [...new Map(product.stock.map((s) => [s.color.id, s.color])).values()];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await update.mutateAsync({ imageId: image.id, alt, color_id: colorId });
      setMessage({ text: 'Salvo.', error: false });
      onSaved(saved);
    } catch (error) {
      const fields = error instanceof ApiRequestError ? error.body?.errors : undefined;
      setMessage({ text: fields?.alt ?? fields?.color_id ?? errorMessage(error), error: true });
    }
  };

  return (
    <form aria-label={`Detalhes da foto ${number}`} onSubmit={submit} className="mt-2 grid gap-1 text-sm">
      <label htmlFor={`${id}-alt`}>Texto alternativo da foto {number}</label>
      <input
        id={`${id}-alt`}
        value={alt}
        maxLength={200}
        onChange={(e) => setAlt(e.target.value)}
        placeholder="Ex.: camiseta coral vista de frente"
        className={inputClass}
      />
      <label htmlFor={`${id}-cor`}>Cor da foto {number}</label>
      <select
        id={`${id}-cor`}
        value={colorId ?? ''}
        onChange={(e) => setColorId(e.target.value ? Number(e.target.value) : null)}
        className={inputClass}
      >
        <option value="">Todas as cores</option>
        {colors.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <button type="submit" className={secondaryButtonClass} disabled={update.isPending}>
        Salvar foto {number}
      </button>
      {message ? (
        <p role="status" className={message.error ? 'text-red-700 dark:text-red-400' : ''}>
          {message.text}
        </p>
      ) : null}{' '}
    </form>
  );
}
