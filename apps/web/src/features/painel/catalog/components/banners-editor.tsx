import type { PainelBanner, PainelPhoto } from '@passada/core/contracts/painel';
import { type ChangeEvent, useEffect, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { ApiRequestError } from '../../../../lib/api.ts';
import { usePhotoProcessing } from '../../shell/api/photos.ts';
import { MoveButtons, moved } from '../../shell/components/move-buttons.tsx';
import { isStaleVersion, StaleVersionAlert } from '../../shell/components/stale-version-alert.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { type Banners, useSaveBanners, useUploadBannerImage } from '../api/home.ts';

type Draft = PainelBanner & { key: number };
let nextKey = 0;
const withKey = (b: PainelBanner): Draft => ({ ...b, key: nextKey++ });

/**
 * A banner's image: sent through the photo pipeline (answered `processando`), polled until its resized
 * copies exist, then given to the banner, so a banner never points at files not made yet.
 */
function BannerImage({
  banner,
  number,
  onReady,
}: {
  banner: Draft;
  number: number;
  onReady(url: string): void;
}) {
  const upload = useUploadBannerImage();
  const [pending, setPending] = useState<PainelPhoto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const processed = usePhotoProcessing(pending);
  useEffect(() => {
    const photo = processed.data;
    if (!photo || photo.status === 'processando') return;
    if (photo.status === 'pronta') onReady(photo.url);
    else setError('Não foi possível processar a imagem. Envie outra.');
    setPending(null);
  }, [processed.data, onReady]);

  const send = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    try {
      setPending(await upload.mutateAsync(file));
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className="grid gap-1">
      {banner.imagem ? (
        <img
          src={banner.imagem}
          alt={banner.texto}
          width={320}
          height={140}
          className="aspect-[16/7] w-80 rounded bg-stone-200 object-cover dark:bg-stone-800"
        />
      ) : (
        <span className="flex aspect-[16/7] w-80 items-center justify-center rounded bg-stone-100 text-sm dark:bg-stone-800">
          Sem imagem
        </span>
      )}
      <label className={`${secondaryButtonClass} inline-block w-fit cursor-pointer`}>
        {pending || upload.isPending ? 'Processando imagem…' : `Enviar imagem do banner ${number}`}
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
          className="sr-only"
          disabled={pending !== null || upload.isPending}
          onChange={send}
        />
      </label>
      {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </div>
  );
}

/** The home slider's banners after the brand video: image, text (its alt) and link, in order. */
export function BannersEditor({
  banners,
  canEdit,
  onReload,
}: {
  banners: Banners;
  canEdit: boolean;
  onReload(): Promise<void>;
}) {
  const save = useSaveBanners();
  const [list, setList] = useState(() => banners.banners.map(withKey));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [stale, setStale] = useState<string | null>(null);

  const change = (key: number, patch: Partial<PainelBanner>) =>
    setList((all) => all.map((b) => (b.key === key ? { ...b, ...patch } : b)));

  const submit = async () => {
    setErrors({});
    setStatus(null);
    try {
      await save.mutateAsync({
        versao: banners.versao,
        banners: list.map(({ imagem, texto, link }) => ({ imagem, texto, link })),
      });
      setStatus({ message: 'Banners salvos. A home da loja já mostra estes banners.', tone: 'success' });
    } catch (error) {
      if (isStaleVersion(error)) {
        setStale(errorMessage(error));
        return;
      }
      if (error instanceof ApiRequestError && error.body?.errors) setErrors(error.body.errors);
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <section aria-labelledby="banners-titulo">
      <h2 id="banners-titulo" className="mb-1 text-xl font-semibold">
        Banners ({list.length})
      </h2>
      <p className="mb-3 text-sm">
        Aparecem depois do vídeo, nesta ordem. O texto descreve a imagem para quem não a vê.
      </p>
      <ol className="grid max-w-3xl gap-4">
        {list.map((banner, index) => {
          const number = index + 1;
          const error = (field: keyof PainelBanner) => errors[`banners.${index}.${field}`];
          return (
            <li
              key={banner.key}
              className="rounded-lg border border-stone-300 bg-white p-3 dark:border-stone-700 dark:bg-stone-900"
            >
              <fieldset disabled={!canEdit} className="grid gap-3">
                <legend className="font-medium">Banner {number}</legend>
                <BannerImage
                  banner={banner}
                  number={number}
                  onReady={(url) => change(banner.key, { imagem: url })}
                />
                {error('imagem') ? (
                  <p className="text-sm text-red-700 dark:text-red-400">{error('imagem')}</p>
                ) : null}
                <FormField
                  label={`Texto do banner ${number}`}
                  value={banner.texto}
                  maxLength={160}
                  error={error('texto')}
                  onChange={(e) => change(banner.key, { texto: e.target.value })}
                />
                <FormField
                  label={`Link do banner ${number}`}
                  value={banner.link}
                  placeholder="/eventos"
                  maxLength={300}
                  error={error('link')}
                  onChange={(e) => change(banner.key, { link: e.target.value })}
                />
              </fieldset>
              {canEdit ? (
                <MoveButtons
                  name={`banner ${number}`}
                  index={index}
                  count={list.length}
                  removeLabel="Remover"
                  onMove={(from, to) => setList((all) => moved(all, from, to))}
                  onRemove={() => setList((all) => all.filter((b) => b.key !== banner.key))}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
      <div className="mt-3 grid max-w-3xl gap-2">
        <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
        {stale ? (
          <StaleVersionAlert message={stale} reloadLabel="Recarregar os banners" onReload={onReload} />
        ) : null}
        {canEdit ? (
          <div className="flex gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setList((all) => [...all, withKey({ imagem: '', texto: '', link: '' })])}
            >
              Adicionar banner
            </button>
            <button type="button" className={primaryButtonClass} onClick={submit}>
              Salvar banners
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
