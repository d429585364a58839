import type { Event } from '@passada/core/contracts/events';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField, SelectField } from '../../../components/form-field.tsx';
import type { ParticipantFormValues } from './participant-form.tsx';

interface RaceFieldsProps {
  event: Event;
  register: UseFormRegister<ParticipantFormValues>;
  errors: FieldErrors<ParticipantFormValues>;
}

/**
 * What a race asks besides the person: shirt size (a size that ran out stays listed as "Esgotado"),
 * team, emergency contact, PCD where offered, and the termo de responsabilidade.
 */
export function RaceFields({ event, register, errors }: RaceFieldsProps) {
  const sizes = event.kit.tamanhos;
  return (
    <div className="mt-6 grid gap-4 sm:grid-cols-2">
      {sizes.length > 0 ? (
        <SelectField
          label="Tamanho da camisa"
          error={errors.tamanho_camisa?.message}
          {...register('tamanho_camisa', {
            setValueAs: (v: string) => (v === '' || v === undefined ? undefined : Number(v)),
          })}
        >
          <option value="">Selecione</option>
          {sizes.map((s) => (
            <option key={s.id} value={s.id} disabled={s.quantidade_disponivel <= 0}>
              {s.quantidade_disponivel <= 0 ? `${s.tamanho} — Esgotado` : s.tamanho}
            </option>
          ))}
        </SelectField>
      ) : null}
      <FormField
        label="Equipe ou assessoria (opcional)"
        error={errors.equipe?.message}
        {...register('equipe')}
      />
      <FormField
        label="Contato de emergência (nome)"
        error={errors.contato_emergencia_nome?.message}
        {...register('contato_emergencia_nome')}
      />
      <FormField
        label="Telefone do contato de emergência"
        type="tel"
        error={errors.contato_emergencia_telefone?.message}
        {...register('contato_emergencia_telefone')}
      />
      {event.oferece_pcd ? (
        <label className="flex items-center gap-2 sm:col-span-2">
          <input type="checkbox" className="size-4 accent-brand-700" {...register('pcd')} />
          Sou pessoa com deficiência (PCD)
        </label>
      ) : null}
      <div className="sm:col-span-2">
        <h3 className="text-sm font-medium" id="termo-titulo">
          Termo de responsabilidade
        </h3>
        <div
          className="mt-1 max-h-40 overflow-y-auto whitespace-pre-line rounded-lg border border-stone-300 p-3 text-sm dark:border-stone-700"
          aria-labelledby="termo-titulo"
          role="document"
        >
          {event.termo_responsabilidade}
        </div>
        <label className="mt-2 flex items-center gap-2">
          <input
            type="checkbox"
            className="size-4 accent-brand-700"
            aria-invalid={errors.aceite_termo ? true : undefined}
            {...register('aceite_termo')}
          />
          Li e aceito o termo de responsabilidade
        </label>
        {errors.aceite_termo?.message ? (
          <p className="text-sm text-red-700 dark:text-red-400">{errors.aceite_termo.message}</p>
        ) : null}
      </div>
    </div>
  );
}
