import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TransferRequest,
  type TransferRequestBody,
  TransferRequestSchema,
} from '@passada/core/contracts/after-sale';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type FieldErrors, type UseFormRegister, useForm } from 'react-hook-form';
import { FormField, FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { cpfMask, MaskedField } from '../../../components/masked-field.tsx';
import { formatReais } from '../../../components/price.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { transferStatusQuery, useCancelTransfer, useRequestTransfer } from '../api/transfer-api.ts';

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : fallback;

/**
 * "Transferir inscrição" on the lookup page (docs/decisions/0041): the holder names the new runner,
 * who gets a link by e-mail to fill in their own data and pay the event's fee; a pending transfer is
 * shown and can be withdrawn.
 */
export function RunnerTransfer(props: { registrationId: number }) {
  const [asking, setAsking] = useState(false);
  const status = useQuery({ ...transferStatusQuery(props.registrationId), enabled: asking });
  const requestTransfer = useRequestTransfer(props.registrationId);
  const cancelTransfer = useCancelTransfer(props.registrationId);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TransferRequest, unknown, TransferRequestBody>({
    resolver: zodResolver(TransferRequestSchema),
    defaultValues: { nome_completo: '', cpf: '', email: '' },
  });

  if (!asking)
    return (
      <button type="button" className={`${secondaryButtonClass} mt-4 ml-2`} onClick={() => setAsking(true)}>
        Transferir inscrição
      </button>
    );
  const s = status.data;
  if (!s)
    return status.isError ? (
      <FormStatus message="Não foi possível consultar a transferência." tone="error" />
    ) : null;

  const send = handleSubmit(async (to) => {
    setError(null);
    setDone(null);
    try {
      await requestTransfer.mutateAsync(to);
      setDone(`Enviamos a ${to.email} o link para concluir a transferência.`);
    } catch (err) {
      setError(errorText(err, 'Não foi possível pedir a transferência.'));
    }
  });
  const withdraw = async () => {
    setError(null);
    setDone(null);
    try {
      await cancelTransfer.mutateAsync();
      setDone('Transferência cancelada: o link enviado não vale mais.');
    } catch (err) {
      setError(errorText(err, 'Não foi possível cancelar a transferência.'));
    }
  };

  return (
    <section
      aria-label={`Transferir para outra pessoa — inscrição nº ${props.registrationId}`}
      className="mt-4 rounded-lg border border-stone-300 p-3 dark:border-stone-600"
    >
      <h3 className="font-semibold">Transferir para outra pessoa</h3>
      <FormStatus message={done} tone="success" />
      <FormStatus message={error} tone="error" />
      {s.pendente ? (
        <div className="mt-2">
          <p>
            Aguardando {s.pendente.nome_completo} ({s.pendente.email}) concluir a transferência até{' '}
            {formatDateTime(s.pendente.expira_em)}.
          </p>
          <button
            type="button"
            className={`${secondaryButtonClass} mt-2`}
            disabled={cancelTransfer.isPending}
            onClick={() => void withdraw()}
          >
            Cancelar transferência
          </button>
        </div>
      ) : !s.permitido ? (
        <p className="mt-2 font-medium">{s.motivo}</p>
      ) : (
        <form className="mt-2 grid gap-3" noValidate onSubmit={(e) => void send(e)}>
          <p className="text-sm">
            A nova pessoa recebe um link por e-mail, preenche os próprios dados, aceita o termo e paga{' '}
            {s.taxa > 0 ? `a taxa de ${formatReais(s.taxa)}` : 'sem taxa'} (e a diferença, se a inscrição foi
            paga com meia-entrada e ela não tiver direito). Depois disso, o seu QR code deixa de valer.
          </p>
          <NewRunnerFields register={register} errors={errors} />
          <div className="flex gap-2">
            <button type="submit" className={secondaryButtonClass} disabled={requestTransfer.isPending}>
              Enviar link de transferência
            </button>
            <button type="button" className={secondaryButtonClass} onClick={() => setAsking(false)}>
              Fechar
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** Who the registration goes to: the holder types name, CPF and e-mail; the new runner fills the rest. */
export function NewRunnerFields({
  register,
  errors,
}: {
  register: UseFormRegister<TransferRequest>;
  errors: FieldErrors<TransferRequest>;
}) {
  return (
    <>
      <FormField
        label="Nome completo da nova pessoa"
        error={errors.nome_completo?.message}
        {...register('nome_completo')}
      />
      <MaskedField
        label="CPF da nova pessoa"
        mask={cpfMask}
        placeholder="000.000.000-00"
        error={errors.cpf?.message}
        {...register('cpf')}
      />
      <FormField
        label="E-mail da nova pessoa"
        type="email"
        error={errors.email?.message}
        {...register('email')}
      />
    </>
  );
}
