import { PCD_CONSENT, WHATSAPP_CONSENT } from '@passada/core/contracts/consents';
import type { Event } from '@passada/core/contracts/events';
import type { Control, FieldErrors, UseFormRegister } from 'react-hook-form';
import { Link } from 'react-router';
import { FormField, SelectField } from '../../../components/form-field.tsx';
import { MaskedField, phoneMask } from '../../../components/masked-field.tsx';
import type { ParticipantFormValues } from './participant-form.tsx';
import { TeamCodeField } from './team-code-field.tsx';

interface RaceFieldsProps {
  event: Event;
  register: UseFormRegister<ParticipantFormValues>;
  errors: FieldErrors<ParticipantFormValues>;
  control: Control<ParticipantFormValues>;
  /** The team's fields (free text and join code); off where the team is already known (a team's place). */
  teamFields?: boolean;
}

/**
 * What a race asks besides the person: shirt size (a size that ran out stays listed as "Esgotado"),
 * team (by name, or a captain's team by its code), emergency contact, PCD where offered, and the termo de responsabilidade.
 */
export function RaceFields({ event, register, errors, control, teamFields = true }: RaceFieldsProps) {
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
      {teamFields ? (
        <>
          <FormField
            label="Equipe ou assessoria (opcional)"
            error={errors.equipe?.message}
            {...register('equipe')}
          />
          <TeamCodeField eventId={event.id} control={control} register={register} errors={errors} />
        </>
      ) : null}
      <FormField
        label="Contato de emergência (nome)"
        error={errors.contato_emergencia_nome?.message}
        {...register('contato_emergencia_nome')}
      />
      <MaskedField
        label="Telefone do contato de emergência"
        mask={phoneMask}
        type="tel"
        placeholder="(00) 00000-0000"
        error={errors.contato_emergencia_telefone?.message}
        {...register('contato_emergencia_telefone')}
      />
      {event.oferece_pcd ? (
        <div className="sm:col-span-2">
          <label className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-brand-700" {...register('pcd')} />
            Sou pessoa com deficiência (PCD)
          </label>
          {/* Health data: its own consent, apart and highlighted (LGPD art. 11 I). */}
          <label className="mt-2 flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-brand-700"
              aria-invalid={errors.pcd_consentimento ? true : undefined}
              {...register('pcd_consentimento')}
            />
            <span>Se marquei PCD: {PCD_CONSENT.text}</span>
          </label>
          {errors.pcd_consentimento?.message ? (
            <p className="text-sm text-red-700 dark:text-red-400">{errors.pcd_consentimento.message}</p>
          ) : null}
        </div>
      ) : null}
      <label className="flex items-start gap-2 text-sm sm:col-span-2">
        <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" {...register('whatsapp')} />
        <span>{WHATSAPP_CONSENT.text}</span>
      </label>
      <p className="text-sm sm:col-span-2">
        Como usamos os seus dados:{' '}
        <Link to="/privacidade" className="underline">
          Política de dados pessoais
        </Link>
        .
      </p>
      <div className="sm:col-span-2">
        <h3 className="text-sm font-medium" id="termo-titulo">
          Termo de responsabilidade
        </h3>
        <div
          className="mt-1 max-h-40 overflow-y-auto whitespace-pre-line rounded-lg border border-stone-300 p-3 text-sm dark:border-stone-700"
          aria-labelledby="termo-titulo"
          role="document"
          // A scrolling text must be reachable by keyboard to be read (axe: scrollable-region-focusable).
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the termo scrolls and keyboard users must read it
          tabIndex={0}
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
