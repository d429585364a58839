import { useQuery } from '@tanstack/react-query';
import { type Control, type FieldErrors, type UseFormRegister, useWatch } from 'react-hook-form';
import { FormField } from '../../../components/form-field.tsx';
import { teamByCodeQuery } from '../../../lib/teams-api.ts';
import type { ParticipantFormValues } from './participant-form.tsx';

interface TeamCodeFieldProps {
  eventId: number;
  control: Control<ParticipantFormValues>;
  register: UseFormRegister<ParticipantFormValues>;
  errors: FieldErrors<ParticipantFormValues>;
}

/**
 * The team's join code (docs/decisions/0067-teams.md), filled from the captain's invite link: once it
 * has its 8 characters the team's name is shown, or why it cannot be joined. The server checks it again.
 */
export function TeamCodeField({ eventId, control, register, errors }: TeamCodeFieldProps) {
  const typed = useWatch({ control, name: 'equipe_codigo' }) ?? '';
  const team = useQuery(teamByCodeQuery(typed));
  const note = !team.isEnabled
    ? null
    : team.isError
      ? { bad: true, text: 'Nenhuma equipe com este código.' }
      : team.data
        ? team.data.evento && team.data.evento.id !== eventId
          ? { bad: true, text: `Este código é da equipe ${team.data.nome}, de outro evento.` }
          : !team.data.aberta
            ? { bad: true, text: `A equipe ${team.data.nome} não aceita novos membros.` }
            : {
                bad: false,
                text: `Equipe: ${team.data.nome}. O capitão verá seu nome e sua distância.`,
              }
        : null;
  const joinable = note !== null && !note.bad;
  return (
    <div className="flex flex-col gap-1">
      <FormField
        label="Código da equipe (opcional)"
        autoCapitalize="characters"
        autoComplete="off"
        error={errors.equipe_codigo?.message}
        {...register('equipe_codigo')}
      />
      {note ? (
        <p
          role="status"
          className={
            note.bad ? 'text-sm text-red-700 dark:text-red-400' : 'text-sm text-brand-800 dark:text-brand-100'
          }
        >
          {note.text}
        </p>
      ) : null}
      {joinable ? (
        <label className="mt-1 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-brand-700"
            {...register('retirada_pela_equipe')}
          />
          <span>
            Autorizo quem a equipe enviar a retirar meu kit junto com os da equipe (a pessoa mostra um
            documento com foto na retirada).
          </span>
        </label>
      ) : null}
    </div>
  );
}
