import type { PainelProduct } from '@passada/core/contracts/painel';
import { type ChangeEvent, useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../../components/dialog.tsx';
import { FormStatus, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  useProcessingPhotos,
  useRefreshProduct,
  useRemovePhoto,
  useReorderPhotos,
  useUploadPhoto,
} from '../api/products.ts';
import { PhotoDetails } from './photo-details.tsx';

type Image = PainelProduct['images'][number];
const MAX_PHOTOS = 19;

/**
 * Upload, order (drag and drop, or the arrow buttons from the keyboard), describe (alt text, colour) and
 * remove, after a confirmation, a product's photos.
 * An upload comes back "processando" (the server resizes it in its queue); the list asks again every
 * second until none is left processing. It polls its own query, so the product form above is not reset.
 */
export function PhotoManager({ product }: { product: PainelProduct }) {
  const refetchProduct = useRefreshProduct(product.id);
  const uploadPhoto = useUploadPhoto(product.id);
  const reorderPhotos = useReorderPhotos(product.id);
  const removePhoto = useRemovePhoto(product.id);
  const [images, setImages] = useState<Image[]>(product.images);
  const [dragged, setDragged] = useState<number | null>(null);
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<{ image: Image; number: number } | null>(null);
  const processing = images.some((i) => i.status === 'processando');
  const poll = useProcessingPhotos(product.id, processing);
  useEffect(() => {
    if (poll.data) setImages(poll.data.images);
  }, [poll.data]);

  const refresh = async () => {
    const fresh = await refetchProduct();
    setImages(fresh.images);
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    setBusy(true);
    setStatus(null);
    try {
      for (const file of files) await uploadPhoto.mutateAsync(file);
      await refresh();
      setStatus({ message: files.length > 1 ? 'Fotos enviadas.' : 'Foto enviada.', tone: 'success' });
    } catch (error) {
      await refresh();
      setStatus({ message: errorMessage(error), tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const saveOrder = async (next: Image[]) => {
    setImages(next);
    try {
      const saved = await reorderPhotos.mutateAsync(next.map((i) => i.id));
      setImages(saved);
      setStatus({ message: 'Ordem das fotos salva.', tone: 'success' });
    } catch (error) {
      await refresh();
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= images.length || from === to) return;
    const next = [...images];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    void saveOrder(next);
  };

  const remove = async (image: Image) => {
    setRemoving(null);
    try {
      await removePhoto.mutateAsync(image.id);
      await refresh();
      setStatus({ message: 'Foto removida.', tone: 'success' });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <section aria-labelledby="fotos-titulo" className="mt-8">
      <h2 id="fotos-titulo" className="mb-2 text-xl font-semibold">
        Fotos ({images.length}/{MAX_PHOTOS})
      </h2>
      <label className={`${secondaryButtonClass} inline-block cursor-pointer`}>
        {busy ? 'Enviando…' : 'Enviar fotos'}
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
          multiple
          className="sr-only"
          disabled={busy || images.length >= MAX_PHOTOS}
          onChange={upload}
        />
      </label>
      <div className="my-2">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      </div>
      <ConfirmDialog
        question={
          removing ? `Remover a foto ${removing.number}? Ela sai da loja e não pode ser recuperada.` : null
        }
        confirmLabel="Remover foto"
        onConfirm={() => removing && remove(removing.image)}
        onCancel={() => setRemoving(null)}
      />
      <ol className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {images.map((image, index) => (
          <li
            key={image.id}
            draggable
            onDragStart={() => setDragged(index)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={() => {
              if (dragged !== null) move(dragged, index);
              setDragged(null);
            }}
            className="rounded-lg border border-stone-300 bg-white p-2 dark:border-stone-700 dark:bg-stone-900"
          >
            {image.status === 'pronta' ? (
              <picture>
                {image.srcset_avif ? (
                  <source type="image/avif" srcSet={image.srcset_avif} sizes="160px" />
                ) : null}
                {image.srcset_webp ? (
                  <source type="image/webp" srcSet={image.srcset_webp} sizes="160px" />
                ) : null}
                <img
                  src={image.url}
                  alt={`Foto ${index + 1}`}
                  className="aspect-[5/6] w-full rounded object-cover"
                />
              </picture>
            ) : (
              <p
                className={`flex aspect-[5/6] w-full items-center justify-center rounded bg-stone-100 p-2 text-center text-sm dark:bg-stone-800 ${
                  image.status === 'falhou' ? 'text-red-700 dark:text-red-400' : ''
                }`}
              >
                <span className="sr-only">Foto {index + 1}: </span>
                {image.status === 'processando'
                  ? 'Processando…'
                  : 'Não foi possível processar esta foto. Remova e envie de novo.'}
              </p>
            )}
            <div className="mt-1 flex items-center justify-between gap-1 text-sm">
              <button
                type="button"
                aria-label={`Mover foto ${index + 1} para antes`}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
                className="rounded px-2 py-1 hover:bg-stone-200 disabled:opacity-30 dark:hover:bg-stone-800"
              >
                ←
              </button>
              <span>{index + 1}</span>
              <button
                type="button"
                aria-label={`Mover foto ${index + 1} para depois`}
                disabled={index === images.length - 1}
                onClick={() => move(index, index + 1)}
                className="rounded px-2 py-1 hover:bg-stone-200 disabled:opacity-30 dark:hover:bg-stone-800"
              >
                →
              </button>
              <button
                type="button"
                aria-label={`Remover foto ${index + 1}`}
                onClick={() => setRemoving({ image, number: index + 1 })}
                className="rounded px-2 py-1 text-red-700 hover:bg-red-50 dark:text-red-400"
              >
                ✕
              </button>
            </div>
            <PhotoDetails
              product={product}
              image={image}
              number={index + 1}
              onSaved={(saved) => setImages((list) => list.map((i) => (i.id === saved.id ? saved : i)))}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}
