import { formatStoreDateTime } from '@passada/core/calendar';
import { formatBRL, reaisToCents } from '@passada/core/money';
import { type FormEvent, useState } from 'react';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { errorMessage, fieldErrors } from '../../shell/utils/error-message.ts';
import { useRegistrationTransfer, useStaffTransfer } from '../api/registrations.ts';

const EMPTY = { nome_completo: '', cpf: '', email: '', motivo: '' };

/**
 * Staff transferring a registration for the runner who asked them (decision 0083): the runner's own
 * transfer, with the event's rules and fee; the new person gets the invitation by e-mail and completes it
 * (and pays the fee). A pending one can be withdrawn.
 */
export function StaffTransfer({ id }: { id: number }) {
  const status = useRegistrationTransfer(id);
  const { request, cancel } = useStaffTransfer(id);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const s = status.data;
  if (!s) return status.isError ? <p role="alert">{errorMessage(status.error)}</p> : <p>Carregando…</p>;

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await request.mutateAsync(form);
      setForm(EMPTY);
      setMessage({ text: `Convite enviado para ${form.email}.`, tone: 'success' });
    } catch (error) {
      setErrors(fieldErrors(error));
      setMessage({ text: errorMessage(error), tone: 'error' });
    }
  };
  const undo = async () => {
    try {
      await cancel.mutateAsync();
      setMessage({ text: 'Transferência desfeita: o convite não vale mais.', tone: 'success' });
    } catch (error) {
      setMessage({ text: errorMessage(error), tone: 'error' });
    }
  };

  return (
    <div>
      {s.pendente ? (
        <div className="mb-2">
          <p>
            Aguardando {s.pendente.nome_completo} ({s.pendente.email}) concluir até{' '}
            {formatStoreDateTime(new Date(s.pendente.expira_em))}.
          </p>
          <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={() => void undo()}>
            Desfazer transferência
          </button>
        </div>
      ) : s.permitido ? (
        <form
          onSubmit={submit}
          noValidate
          aria-label="Transferir a pedido do corredor"
          className="grid max-w-xl gap-2"
        >
          <p className="text-sm text-stone-600 dark:text-stone-400">
            A nova pessoa recebe o convite por e-mail e conclui com os próprios dados
            {s.taxa > 0 ? `, pagando a taxa de ${formatBRL(reaisToCents(s.taxa))}` : ''}, como na
            transferência pelo site.
          </p>
          <FormField
            label="Nome da nova pessoa"
            value={form.nome_completo}
            error={errors.nome_completo}
            onChange={set('nome_completo')}
          />
          <FormField label="CPF da nova pessoa" value={form.cpf} error={errors.cpf} onChange={set('cpf')} />
          <FormField
            label="E-mail da nova pessoa"
            type="email"
            value={form.email}
            error={errors.email}
            onChange={set('email')}
          />
          <FormField
            label="Como o corredor pediu"
            value={form.motivo}
            error={errors.motivo}
            onChange={set('motivo')}
          />
          <button
            type="submit"
            className={`${primaryButtonClass} justify-self-start`}
            disabled={request.isPending}
          >
            Enviar convite de transferência
          </button>
        </form>
      ) : (
        <p>{s.motivo}</p>
      )}
      <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
    </div>
  );
}
