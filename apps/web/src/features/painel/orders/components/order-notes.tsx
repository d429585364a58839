import type { OrderNote } from '@passada/core/contracts/painel-orders';
import { type FormEvent, useState } from 'react';
import { FormStatus, secondaryButtonClass, TextAreaField } from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useAddOrderNote } from '../api/orders.ts';

/** Staff's internal notes on an order (never shown to the buyer), oldest first, and the form to add one. */
export function OrderNotes({
  orderId,
  notes,
  className,
}: {
  orderId: number;
  notes: OrderNote[];
  className: string;
}) {
  const add = useAddOrderNote(orderId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await add.mutateAsync(text);
      setText('');
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className={className}>
      <h2 className="mb-2 font-semibold">Notas internas</h2>
      <p className="mb-2 text-xs text-stone-600 dark:text-stone-400">Só a equipe vê; o cliente não.</p>
      {notes.length ? (
        <ul className="mb-3 flex flex-col gap-2 text-sm" aria-label="Notas internas">
          {notes.map((n) => (
            <li key={n.id}>
              <p className="whitespace-pre-line">{n.texto}</p>
              <p className="text-xs text-stone-600 dark:text-stone-400">
                {n.por} · {formatDateTime(n.em)}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-3 text-sm">Nenhuma nota.</p>
      )}
      <form onSubmit={submit} className="flex flex-col gap-2">
        <TextAreaField label="Nova nota" value={text} onChange={(e) => setText(e.target.value)} rows={3} />
        <FormStatus message={error} tone="error" />
        <button type="submit" className={secondaryButtonClass} disabled={add.isPending}>
          Adicionar nota
        </button>
      </form>
    </div>
  );
}
