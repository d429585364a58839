import { zodResolver } from '@hookform/resolvers/zod';
import { streetLine } from '@passada/core/address';
import { formatCep } from '@passada/core/cep';
import type { Address } from '@passada/core/contracts/accounts';
import { type Participant, ParticipantSchema } from '@passada/core/contracts/registrations';
import type { RegistrationStart } from '@passada/core/events';
import { formatPhone } from '@passada/core/phone';
import { useEffect, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useAddresses } from '../../../lib/accounts-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { rememberedReferral } from '../../../lib/tab-memory.ts';
import { rememberedTeamCode } from '../../../lib/teams-api.ts';
import type { ParticipantFormValues } from '../components/participant-form.tsx';

function primaryAddressValues(a: Address) {
  return {
    street: streetLine(a),
    neighborhood: a.neighborhood,
    city: a.city,
    state: a.state,
    // Shown in the masked inputs as if typed; the contract strips the punctuation again.
    zip_code: formatCep(a.zip_code),
    numero_contato: formatPhone(a.phone),
  };
}

/**
 * The participant form. For oneself, name and e-mail come from the profile, address and phone from
 * the primary address; `primary` tells whether that address exists (then it is not editable).
 * When the address list cannot fill the form, `addressNote` says why: a message for the page to show
 * beside the form, never a dialog, since the list may arrive while the runner is typing.
 */
export function useParticipantForm(start: RegistrationStart, termsVersion: string | undefined) {
  const { profile } = useSession();
  const addresses = useAddresses();
  const form = useForm<ParticipantFormValues, unknown, Participant>({
    // The form keeps gender as '' until chosen; the contract refuses that with its own message.
    resolver: zodResolver(ParticipantSchema) as unknown as Resolver<
      ParticipantFormValues,
      unknown,
      Participant
    >,
    defaultValues: {
      nome_completo: '',
      cpf: '',
      data_nascimento: '',
      genero: '',
      numero_contato: '',
      email: '',
      evento: start.eventoId,
      categoria_evento: start.categorias,
      street: '',
      zip_code: '',
      state: '',
      city: '',
      neighborhood: '',
      equipe: '',
      // A captain's invite link opened earlier in this tab (docs/decisions/0067).
      equipe_codigo: rememberedTeamCode(),
      // A runner's referral link opened earlier in this tab (docs/decisions/0086).
      indicacao: rememberedReferral(),
      retirada_pela_equipe: false,
      contato_emergencia_nome: '',
      contato_emergencia_telefone: '',
      pcd: false,
      pcd_consentimento: false,
      whatsapp: false,
    },
  });
  const { setValue } = form;
  // The acceptance records the version of the text the page showed.
  useEffect(() => {
    if (termsVersion) setValue('termo_versao', termsVersion);
  }, [termsVersion, setValue]);

  const primary = addresses.data?.find((a) => a.is_primary) ?? null;
  const prefilledProfile = useRef(false);
  useEffect(() => {
    if (!start.paraMim || !profile || prefilledProfile.current) return;
    prefilledProfile.current = true;
    setValue('nome_completo', profile.full_name);
    setValue('email', profile.email);
  }, [start.paraMim, profile, setValue]);
  const prefilledAddress = useRef(false);
  const [addressNote, setAddressNote] = useState<string | null>(null);
  useEffect(() => {
    if (!start.paraMim || prefilledAddress.current) return;
    if (addresses.isError) {
      prefilledAddress.current = true;
      setAddressNote('Erro ao carregar os dados do endereço do usuário.');
      return;
    }
    if (!addresses.data) return;
    prefilledAddress.current = true;
    if (!primary) {
      setAddressNote('Não há endereço principal encontrado.');
      return;
    }
    for (const [key, value] of Object.entries(primaryAddressValues(primary)))
      setValue(key as keyof ParticipantFormValues, value);
  }, [start.paraMim, addresses.isError, addresses.data, primary, setValue]);

  return { form, hasPrimaryAddress: primary !== null, addressNote };
}
