import type { PainelResultPhoto, ResultPhotoFileAnswer } from '@passada/core/contracts/results';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  useRemoveResultPhoto,
  useResultPhotos,
  useTagResultPhoto,
  useTagResultPhotosFromFile,
  useUploadResultPhoto,
} from '../api/results.ts';

const STATUS_LABEL: Record<PainelResultPhoto['status'], string> = {
  processando: 'Processando…',
  pronta: 'Pronta',
  falhou: 'Não foi possível processar: envie de novo',
};

/** "101, 102 103" → [101, 102, 103]; null when something other than bibs was typed. */
function bibsTyped(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (!parts.every((p) => /^\d{1,6}$/.test(p) && Number(p) > 0)) return null;
  return parts.map(Number);
}

/**
 * Photos of the race by bib (docs/decisions/0064, later): the album sent a photo at a time, each tagged
 * with the bibs in it by hand or by the timer's file of bibs per photo. A runner's page shows the ready
 * photos of their bib, with the brand's mark; no face recognition.
 */
export function RacePhotosForm({ eventId, className }: { eventId: number; className: string }) {
  const photos = useResultPhotos(eventId);
  const upload = useUploadResultPhoto(eventId);
  const fromFile = useTagResultPhotosFromFile(eventId);
  const [files, setFiles] = useState<File[]>([]);
  const [sent, setSent] = useState<{ done: number; failed: string[] } | null>(null);
  const [bibFile, setBibFile] = useState<File | null>(null);
  const [tagged, setTagged] = useState<ResultPhotoFileAnswer | null>(null);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const failed: string[] = [];
    let done = 0;
    // One after the other: each photo is a request, and the queue resizes them one at a time anyway.
    for (const file of files) {
      const ok = await upload.mutateAsync(file).then(
        () => true,
        (err: unknown) => {
          failed.push(`${file.name}: ${errorMessage(err)}`);
          return false;
        },
      );
      if (ok) done += 1;
      setSent({ done, failed: [...failed] });
    }
  };
  const tagFromFile = async (e: FormEvent) => {
    e.preventDefault();
    if (!bibFile) return;
    setTagged(await fromFile.mutateAsync(await bibFile.text()).catch(() => null));
  };

  return (
    <section className={className} aria-labelledby="fotos-da-prova-painel">
      <h2 id="fotos-da-prova-painel" className="mb-2 font-semibold">
        6. Fotos da prova
      </h2>
      <p className="mb-2 text-sm">
        Cada corredor vê na sua página, de graça e com a marca da loja, as fotos marcadas com o seu número de
        peito. Sem reconhecimento facial: só o número liga a foto ao corredor.
      </p>
      <form onSubmit={send} aria-label="Enviar fotos da prova" className="mb-3">
        <FormField
          label="Fotos (JPEG, PNG, WebP ou HEIC)"
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp,image/heic,.heic"
          onChange={(e) => {
            setSent(null);
            setFiles([...(e.target.files ?? [])]);
          }}
        />
        <button
          type="submit"
          className={`${secondaryButtonClass} mt-2`}
          disabled={!files.length || upload.isPending}
        >
          Enviar fotos
        </button>
        <FormStatus
          message={sent ? `Fotos enviadas: ${sent.done} de ${files.length}.` : null}
          tone="success"
        />
        <FormStatus message={sent?.failed.length ? sent.failed.join(' ') : null} tone="error" />
      </form>
      <form onSubmit={tagFromFile} aria-label="Marcar pelo arquivo de números por foto" className="mb-3">
        <FormField
          label="Arquivo de números por foto (colunas Foto e Números)"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          onChange={(e) => {
            setTagged(null);
            setBibFile(e.target.files?.[0] ?? null);
          }}
        />
        <button
          type="submit"
          className={`${secondaryButtonClass} mt-2`}
          disabled={!bibFile || fromFile.isPending}
        >
          Marcar as fotos pelo arquivo
        </button>
        <FormStatus message={fromFile.error ? errorMessage(fromFile.error) : null} tone="error" />
        <FormStatus message={tagged ? `Fotos marcadas: ${tagged.fotos_marcadas}.` : null} tone="success" />
        {tagged?.linhas_recusadas.length ? (
          <ul aria-label="Linhas recusadas" className="text-sm">
            {tagged.linhas_recusadas.map((l) => (
              <li key={l.linha}>{`Linha ${l.linha} (${l.arquivo || 'sem nome'}): ${l.motivo}`}</li>
            ))}
          </ul>
        ) : null}
      </form>
      {photos.isError ? <FormStatus message={errorMessage(photos.error)} tone="error" /> : null}
      {photos.data?.length ? (
        <ul aria-label="Fotos enviadas" className="grid gap-3 sm:grid-cols-2">
          {photos.data.map((photo) => (
            <PhotoRow key={photo.id} eventId={eventId} photo={photo} />
          ))}
        </ul>
      ) : photos.data ? (
        <p>Nenhuma foto enviada ainda.</p>
      ) : null}
    </section>
  );
}

/** One photo: its state, its bibs typed by hand, and its removal. */
function PhotoRow({ eventId, photo }: { eventId: number; photo: PainelResultPhoto }) {
  const tag = useTagResultPhoto(eventId);
  const remove = useRemoveResultPhoto(eventId);
  const [typed, setTyped] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const value = typed ?? photo.numeros.join(', ');
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const numeros = bibsTyped(value);
    setInvalid(numeros === null);
    if (numeros === null) return;
    if (await tag.mutateAsync({ id: photo.id, numeros }).catch(() => null)) setTyped(null);
  };
  return (
    <li className="rounded border border-stone-300 p-2 dark:border-stone-600">
      {photo.status === 'pronta' ? (
        <img
          src={photo.url}
          alt={`Foto ${photo.nome_arquivo}`}
          loading="lazy"
          className="mb-2 w-full rounded"
        />
      ) : null}
      <p className="text-sm font-medium">{photo.nome_arquivo}</p>
      <p className="text-sm">{STATUS_LABEL[photo.status]}</p>
      <form onSubmit={save} aria-label={`Números da foto ${photo.nome_arquivo}`}>
        <FormField
          label={`Números de peito em ${photo.nome_arquivo}`}
          value={value}
          inputMode="numeric"
          error={invalid ? 'Digite só números de peito, separados por vírgula ou espaço.' : undefined}
          onChange={(e) => setTyped(e.target.value)}
        />
        <div className="mt-2 flex gap-2">
          <button type="submit" className={primaryButtonClass} disabled={tag.isPending}>
            Salvar números
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={remove.isPending}
            onClick={() => remove.mutate(photo.id)}
          >
            Remover foto
          </button>
        </div>
      </form>
      <FormStatus message={tag.error ? errorMessage(tag.error) : null} tone="error" />
      <FormStatus message={remove.error ? errorMessage(remove.error) : null} tone="error" />
    </li>
  );
}
