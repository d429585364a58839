import { zodResolver } from '@hookform/resolvers/zod';
import { formatCep } from '@passada/core/cep';
import { type AddressData, AddressInputSchema, type CepLookup } from '@passada/core/contracts/accounts';
import { formatPhone } from '@passada/core/phone';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormField, FormStatus, linkClass, primaryButtonClass } from '../../../components/form-field.tsx';
import { cepMask, MaskedField, phoneMask } from '../../../components/masked-field.tsx';
import { StateField } from '../../../components/state-field.tsx';
import { addressesQueryKey, lookupCep, saveAddress, showFieldErrors } from '../../../lib/accounts-api.ts';
import { readString, StorageKeys } from '../../../lib/storage.ts';

export type AddressFormValues = z.input<typeof AddressInputSchema>;
const FIELDS = [
  'full_name',
  'zip_code',
  'state',
  'city',
  'neighborhood',
  'street',
  'number',
  'complement',
  'phone',
] as const;

interface AddressFormProps {
  /** Present when editing. */
  id?: number;
  initial?: AddressFormValues;
  /** The spec's message for a failed save: 'Erro ao adicionar o endereço.' or 'Erro ao salvar o endereço.' */
  failureMessage: string;
}

/** What the CEP lookup filled, said beside the field: the offline table knows less than a CEP service. */
export function filledText(found: CepLookup): string {
  const parts = [
    'o estado',
    ...(found.city ? ['a cidade'] : []),
    ...(found.neighborhood ? ['o bairro'] : []),
    ...(found.street ? ['a rua'] : []),
  ];
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} e ${parts.at(-1)}` : parts[0];
  const left = [
    ...(found.city ? [] : ['a cidade']),
    ...(found.neighborhood ? [] : ['o bairro']),
    ...(found.street ? [] : ['a rua']),
    'o número',
  ];
  const rest = left.length > 1 ? `${left.slice(0, -1).join(', ')} e ${left.at(-1)}` : left[0];
  return `O CEP preencheu ${list}. Confira e digite ${rest}.`;
}

/**
 * The address form (spec §2): CEP filled in from /api/cep/ when it has 8 digits or loses focus (state, city,
 * neighbourhood and street when the lookup knows them; then the number is asked), number and complement apart.
 */
export function AddressForm({ id, initial, failureMessage }: AddressFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [lookingUp, setLookingUp] = useState(false);
  const [filled, setFilled] = useState<string | null>(null);
  const lastLookup = useRef<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<AddressFormValues, unknown, AddressData>({
    resolver: zodResolver(AddressInputSchema),
    // Stored values are digits; the masked inputs show them punctuated, as if typed.
    defaultValues: initial
      ? { ...initial, zip_code: formatCep(initial.zip_code), phone: formatPhone(initial.phone) }
      : {
          full_name: '',
          zip_code: '',
          state: '',
          city: '',
          neighborhood: '',
          street: '',
          number: '',
          complement: '',
          phone: '',
          is_primary: false,
        },
  });

  const autofill = async (raw: string) => {
    const cep = raw.replace(/\D/g, '');
    if (cep.length !== 8 || cep === lastLookup.current) return;
    lastLookup.current = cep;
    setLookingUp(true);
    try {
      const found = await lookupCep(cep);
      const opts = { shouldValidate: true, shouldDirty: true } as const;
      setFilled(filledText(found));
      setValue('state', found.state, opts);
      if (found.city) setValue('city', found.city, opts);
      if (found.neighborhood) setValue('neighborhood', found.neighborhood, opts);
      if (found.street && !getValues('street')) {
        setValue('street', found.street, opts);
        // The lookup knows the street, never the house: the number is what is left to type.
        setFocus('number');
      }
    } catch {
      setFilled(null);
      setError('zip_code', { message: 'Digite um CEP válido!' });
    } finally {
      setLookingUp(false);
    }
  };

  const zip = register('zip_code', {
    onChange: (e: { target: { value: string } }) => void autofill(e.target.value),
    onBlur: (e: { target: { value: string } }) => void autofill(e.target.value),
  });

  const onSubmit = handleSubmit(async (data) => {
    setStatus(null);
    if (!readString(StorageKeys.token)) {
      setStatus('Token de autenticação não encontrado.');
      return;
    }
    try {
      await saveAddress(data, id);
      await queryClient.invalidateQueries({ queryKey: addressesQueryKey });
      navigate('/enderecos');
    } catch (error) {
      showFieldErrors(error, FIELDS, setError);
      setStatus(failureMessage);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <FormField
        label="Nome completo"
        autoComplete="name"
        required
        error={errors.full_name?.message}
        {...register('full_name')}
      />
      <MaskedField
        label="CEP"
        mask={cepMask}
        autoComplete="postal-code"
        placeholder="00000-000"
        required
        error={errors.zip_code?.message}
        {...zip}
      />
      <p role="status" className="text-sm text-stone-600 empty:hidden dark:text-stone-400">
        {lookingUp ? 'Buscando o CEP…' : (filled ?? '')}
      </p>
      <StateField error={errors.state?.message} {...register('state')} />
      <FormField
        label="Cidade"
        autoComplete="address-level2"
        required
        error={errors.city?.message}
        {...register('city')}
      />
      <FormField
        label="Bairro"
        autoComplete="address-level3"
        required
        error={errors.neighborhood?.message}
        {...register('neighborhood')}
      />
      <FormField
        label="Rua"
        autoComplete="address-line1"
        required
        error={errors.street?.message}
        {...register('street')}
      />
      <div className="grid grid-cols-[minmax(0,8rem)_1fr] gap-4">
        <FormField
          label="Número"
          inputMode="text"
          placeholder="100 ou S/N"
          required
          error={errors.number?.message}
          {...register('number')}
        />
        <FormField
          label="Complemento (opcional)"
          autoComplete="address-line2"
          placeholder="Apto, bloco, referência"
          error={errors.complement?.message}
          {...register('complement')}
        />
      </div>
      <MaskedField
        label="Telefone"
        mask={phoneMask}
        type="tel"
        autoComplete="tel-national"
        placeholder="(85) 99999-9999"
        required
        error={errors.phone?.message}
        {...register('phone')}
      />
      <label className="flex items-center gap-2">
        <input type="checkbox" className="size-4 accent-brand-700" {...register('is_primary')} />
        Endereço principal
      </label>
      <FormStatus message={status} tone="error" />
      <div className="flex items-center gap-4">
        <button type="submit" className={primaryButtonClass} disabled={isSubmitting}>
          Salvar endereço
        </button>
        <Link to="/enderecos" className={linkClass}>
          Cancelar
        </Link>
      </div>
    </form>
  );
}
