import type { CustomerDetail } from '@passada/core/contracts/painel';
import { type FormEvent, useId, useState } from 'react';
import {
  FormField,
  FormStatus,
  secondaryButtonClass,
  TextAreaField,
} from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import {
  useAddCustomerNote,
  useAddCustomerTag,
  useCustomerTags,
  useDeleteCustomerNote,
  useRemoveCustomerTag,
} from '../api/customers.ts';

type Status = { message: string; tone: 'success' | 'error' } | null;

/**
 * The notes and tags the team keeps on a customer (decision 0080): each note and each tag is its own
 * change, so two people on this screen never write over each other. The person reads the notes when
 * they ask for their data, which the screen says.
 */
export function CustomerNotes({ id, detail }: { id: number; detail: CustomerDetail }) {
  const [note, setNote] = useState('');
  const [tag, setTag] = useState('');
  const [status, setStatus] = useState<Status>(null);
  const tagsInUse = useCustomerTags();
  const addNote = useAddCustomerNote(id);
  const deleteNote = useDeleteCustomerNote(id);
  const addTag = useAddCustomerTag(id);
  const removeTag = useRemoveCustomerTag(id);
  const suggestions = useId();
  const name = detail.cliente.nome;

  const run = async (change: () => Promise<unknown>, done: string, reset?: () => void) => {
    try {
      await change();
      reset?.();
      setStatus({ message: done, tone: 'success' });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };
  const submitNote = (event: FormEvent) => {
    event.preventDefault();
    void run(
      () => addNote.mutateAsync(note),
      'Nota salva.',
      () => setNote(''),
    );
  };
  const submitTag = (event: FormEvent) => {
    event.preventDefault();
    void run(
      () => addTag.mutateAsync(tag),
      'Etiqueta dada.',
      () => setTag(''),
    );
  };

  if (detail.cliente.excluida) return null;
  return (
    <section aria-label={`Notas e etiquetas de ${name}`} className="mt-4">
      <h3 className="font-semibold">Etiquetas</h3>
      {detail.etiquetas.length === 0 ? (
        <p className="text-sm">Nenhuma etiqueta.</p>
      ) : (
        <ul aria-label={`Etiquetas de ${name}`} className="mt-1 flex flex-wrap gap-2">
          {detail.etiquetas.map((t) => (
            <li
              key={t}
              className="flex items-center gap-1 rounded-full border border-stone-300 px-3 py-1 text-sm dark:border-stone-700"
            >
              {t}
              <button
                type="button"
                aria-label={`Tirar a etiqueta ${t}`}
                className="ml-1 rounded px-1 font-bold hover:bg-stone-200 dark:hover:bg-stone-800"
                onClick={() => void run(() => removeTag.mutateAsync(t), `Etiqueta ${t} tirada.`)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submitTag} aria-label="Dar uma etiqueta" className="mt-2 flex max-w-md items-end gap-2">
        <FormField
          label="Nova etiqueta"
          value={tag}
          list={suggestions}
          maxLength={40}
          onChange={(e) => setTag(e.target.value)}
        />
        <datalist id={suggestions}>
          {(tagsInUse.data ?? []).map((t) => (
            <option key={t.etiqueta} value={t.etiqueta} />
          ))}
        </datalist>
        <button type="submit" className={secondaryButtonClass}>
          Dar etiqueta
        </button>
      </form>

      <h3 className="mt-4 font-semibold">Notas da equipe</h3>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        A pessoa recebe estas notas se pedir os seus dados (LGPD). Escreva só o que ajuda a atendê-la.
      </p>
      {detail.notas.length === 0 ? (
        <p className="text-sm">Nenhuma nota.</p>
      ) : (
        <ul aria-label={`Notas sobre ${name}`} className="mt-2 grid gap-2">
          {detail.notas.map((n) => (
            <li key={n.id} className="rounded border border-stone-300 p-2 dark:border-stone-700">
              <p className="whitespace-pre-line">{n.texto}</p>
              <p className="mt-1 flex items-center gap-3 text-sm text-stone-600 dark:text-stone-400">
                {n.autor} · {formatDateTime(n.criada_em)}
                <button
                  type="button"
                  className="underline"
                  aria-label={`Apagar a nota de ${n.autor} de ${formatDateTime(n.criada_em)}`}
                  onClick={() => void run(() => deleteNote.mutateAsync(n.id), 'Nota apagada.')}
                >
                  Apagar
                </button>
              </p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submitNote} aria-label="Escrever uma nota" className="mt-2 grid max-w-xl gap-2">
        <TextAreaField
          label="Nova nota"
          value={note}
          rows={3}
          maxLength={1000}
          onChange={(e) => setNote(e.target.value)}
        />
        <button type="submit" className={`${secondaryButtonClass} justify-self-start`}>
          Salvar nota
        </button>
      </form>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </section>
  );
}
