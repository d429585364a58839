import type { PainelEvent } from '@passada/core/contracts/painel';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FormStatus, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { useDuplicateEvent, useSetRegistrationsOpen } from '../api/events.ts';

/**
 * What staff do to a saved event besides editing it: close or reopen its registrations by hand (the
 * shop then says they are closed and the server refuses new ones), and copy it for next year.
 */
export function EventActions({
  event,
  onChange,
}: {
  event: PainelEvent;
  onChange: (event: PainelEvent) => void;
}) {
  const navigate = useNavigate();
  const duplicate = useDuplicateEvent(event.id);
  const setOpen = useSetRegistrationsOpen(event.id);
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const closed = event.inscricoes_fechadas;

  const toggle = async () => {
    setStatus(null);
    try {
      const saved = await setOpen.mutateAsync(closed);
      onChange(saved);
      setStatus({
        message: saved.inscricoes_fechadas ? 'Inscrições encerradas.' : 'Inscrições reabertas.',
        tone: 'success',
      });
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  const copy = async () => {
    setStatus(null);
    try {
      const created = await duplicate.mutateAsync();
      navigate(`/painel/eventos/${created.id}/editar`);
    } catch (error) {
      setStatus({ message: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <div className="mb-4 grid gap-2 rounded-lg border border-stone-300 p-3 dark:border-stone-700">
      <p>
        Inscrições:{' '}
        <strong>{closed ? 'encerradas pela organização' : 'abertas até o prazo de inscrição'}</strong>
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} disabled={setOpen.isPending} onClick={toggle}>
          {closed ? 'Reabrir inscrições' : 'Encerrar inscrições agora'}
        </button>
        <button type="button" className={secondaryButtonClass} disabled={duplicate.isPending} onClick={copy}>
          Duplicar para o próximo ano
        </button>
      </div>
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
    </div>
  );
}
