import { GENEROS, type Participant, type ParticipantInput } from '@passada/core/contracts/registrations';
import { useId } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FormField } from '../../../components/form-field.tsx';
import { cepMask, cpfMask, MaskedField, phoneMask } from '../../../components/masked-field.tsx';
import { StateField } from '../../../components/state-field.tsx';

/** The form's own values: gender starts unchosen (''), which the contract then refuses. */
export type ParticipantFormValues = Omit<ParticipantInput, 'genero'> & { genero: string };
export type { Participant };

interface ParticipantFieldsProps {
  register: UseFormRegister<ParticipantFormValues>;
  errors: FieldErrors<ParticipantFormValues>;
  /** For oneself: name and e-mail come from the profile and cannot be edited here. */
  lockProfile: boolean;
  /** For oneself with a primary address: address and phone come from it and cannot be edited here. */
  lockAddress: boolean;
}

/** The participant's data (docs/product.md §2, event checkout): labelled inputs with their errors. */
export function ParticipantFields({ register, errors, lockProfile, lockAddress }: ParticipantFieldsProps) {
  const genderId = useId();
  const genderError = errors.genero?.message;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {lockProfile || lockAddress ? (
        <p className="text-sm text-stone-600 sm:col-span-2 dark:text-stone-400">
          Os campos em cinza vêm da sua conta{lockAddress ? ' e do seu endereço principal' : ''} e não podem
          ser alterados aqui.
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <FormField
          label="Nome completo"
          autoComplete="name"
          readOnly={lockProfile}
          error={errors.nome_completo?.message}
          {...register('nome_completo')}
        />
      </div>
      <MaskedField
        label="CPF"
        mask={cpfMask}
        placeholder="000.000.000-00"
        error={errors.cpf?.message}
        {...register('cpf')}
      />
      <FormField
        label="Data de nascimento"
        type="date"
        error={errors.data_nascimento?.message}
        {...register('data_nascimento')}
      />
      <fieldset className="sm:col-span-2" aria-describedby={genderError ? `${genderId}-genero` : undefined}>
        <legend className="text-sm font-medium">Gênero</legend>
        <div className="mt-1 flex gap-6">
          {GENEROS.map((g) => (
            <label key={g} className="flex items-center gap-2">
              <input type="radio" value={g} className="size-4 accent-brand-700" {...register('genero')} />
              {g}
            </label>
          ))}
        </div>
        {genderError ? (
          <p id={`${genderId}-genero`} className="text-sm text-red-700 dark:text-red-400">
            {genderError}
          </p>
        ) : null}
      </fieldset>
      <div className="sm:col-span-2">
        <FormField
          label="Endereço (rua e número)"
          autoComplete="street-address"
          readOnly={lockAddress}
          error={errors.street?.message}
          {...register('street')}
        />
      </div>
      <FormField
        label="Bairro"
        readOnly={lockAddress}
        error={errors.neighborhood?.message}
        {...register('neighborhood')}
      />
      <FormField
        label="Cidade"
        autoComplete="address-level2"
        readOnly={lockAddress}
        error={errors.city?.message}
        {...register('city')}
      />
      <StateField readOnly={lockAddress} error={errors.state?.message} {...register('state')} />
      <MaskedField
        label="CEP"
        mask={cepMask}
        autoComplete="postal-code"
        readOnly={lockAddress}
        error={errors.zip_code?.message}
        {...register('zip_code')}
      />
      <MaskedField
        label="Telefone de contato"
        mask={phoneMask}
        type="tel"
        autoComplete="tel"
        readOnly={lockAddress}
        error={errors.numero_contato?.message}
        {...register('numero_contato')}
      />
      <FormField
        label="E-mail"
        type="email"
        autoComplete="email"
        readOnly={lockProfile}
        error={errors.email?.message}
        {...register('email')}
      />
    </div>
  );
}
