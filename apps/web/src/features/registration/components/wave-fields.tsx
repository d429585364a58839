import type { Event } from '@passada/core/contracts/events';
import { useQuery } from '@tanstack/react-query';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField } from '../../../components/form-field.tsx';
import { eventWavesQuery } from '../../../lib/events-api.ts';
import type { ParticipantFormValues } from './participant-form.tsx';

interface WaveFieldsProps {
  event: Event;
  /** The categories chosen for this registration, in order. */
  categories: number[];
  register: UseFormRegister<ParticipantFormValues>;
  errors: FieldErrors<ParticipantFormValues>;
}

/**
 * The estimated finish time for each chosen race that starts in waves (docs/decisions/0066), with the
 * waves and their times, and an optional past result. Nothing shows for races without waves.
 */
export function WaveFields({ event, categories, register, errors }: WaveFieldsProps) {
  const waves = useQuery(eventWavesQuery(event.id)).data ?? [];
  const nameOf = (id: number) =>
    event.dias_evento.flatMap((d) => d.categorias).find((c) => c.id === id)?.nome_categoria ?? '';
  const races = categories.flatMap((id) => waves.filter((w) => w.categoria_id === id));
  if (!races.length) return null;
  return (
    <fieldset className="mt-6 grid gap-4 sm:grid-cols-2">
      <legend className="text-base font-semibold">Largada por ondas</legend>
      <p className="text-sm text-stone-600 sm:col-span-2 dark:text-stone-400">
        A largada é por ondas, pelo tempo que você espera fazer. Quem não informar larga na última onda.
      </p>
      {races.map((race, i) => {
        const name = `Tempo estimado nos ${nameOf(race.categoria_id)} (h:mm)`;
        return (
          <div key={race.categoria_id}>
            <input
              type="hidden"
              value={race.categoria_id}
              {...register(`tempos_estimados.${i}.categoria`, { valueAsNumber: true })}
            />
            <FormField
              label={name}
              inputMode="numeric"
              placeholder="0:55"
              error={errors.tempos_estimados?.[i]?.tempo?.message}
              {...register(`tempos_estimados.${i}.tempo`)}
            />
            <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
              {race.ondas
                .map((o, n) =>
                  o.ate
                    ? `${o.nome}: até ${o.ate}`
                    : `${o.nome}: ${n === 0 ? 'todos' : 'acima disso ou sem tempo'}`,
                )
                .join(' · ')}
            </p>
          </div>
        );
      })}
      <FormField
        label="Link de um resultado anterior (opcional)"
        type="url"
        placeholder="https://"
        error={errors.resultado_anterior?.message}
        {...register('resultado_anterior')}
      />
    </fieldset>
  );
}
