import type { Event } from '@passada/core/contracts/events';
import { useId, useState } from 'react';
import { FormStatus, inputClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { useChangeSize } from '../api/after-sale-api.ts';

/**
 * "Trocar tamanho da camisa" on the lookup page (docs/decisions/0041): sizes with shirts left, the
 * server holds the new one and gives the old one back, within the event's rules.
 */
export function RunnerSizeChange(props: {
  registrationId: number;
  event: Event;
  current: string | null;
  onChanged: () => void;
}) {
  const selectId = useId();
  const [open, setOpen] = useState(false);
  const [size, setSize] = useState('');
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const change = useChangeSize(props.registrationId);
  // An event read without its kit (an older cached answer) offers nothing to change.
  const sizes = (props.event.kit?.tamanhos ?? []).filter((s) => s.tamanho !== props.current);
  if (sizes.length === 0) return null;
  const submit = async () => {
    setMessage(null);
    try {
      const done = await change.mutateAsync(Number(size));
      setMessage({ text: `Camisa trocada para ${done.tamanho_camisa}.`, tone: 'success' });
      props.onChanged();
    } catch (err) {
      setMessage({
        text: err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : 'Não foi possível trocar.',
        tone: 'error',
      });
    }
  };
  // Folded behind its button, as the card's other actions are.
  if (!open)
    return (
      <div className="mt-4">
        <button
          type="button"
          className={secondaryButtonClass}
          aria-expanded={false}
          onClick={() => setOpen(true)}
        >
          Trocar o tamanho da camisa
        </button>
        <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      </div>
    );
  return (
    <div className="mt-4 flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={selectId} className="text-sm font-medium">
          Trocar tamanho da camisa
        </label>
        <select id={selectId} className={inputClass} value={size} onChange={(e) => setSize(e.target.value)}>
          <option value="">Selecione</option>
          {sizes.map((s) => (
            <option key={s.id} value={s.id} disabled={s.quantidade_disponivel <= 0}>
              {s.quantidade_disponivel <= 0 ? `${s.tamanho} — Esgotado` : s.tamanho}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={!size || change.isPending}
        onClick={() => void submit()}
      >
        Trocar camisa
      </button>
      <button type="button" className={secondaryButtonClass} onClick={() => setOpen(false)}>
        Fechar
      </button>
      <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
    </div>
  );
}
