import { formatIsoDateBR } from '@passada/core/calendar';
import type { Participant } from '@passada/core/contracts/registrations';
import type { TeamClaimView } from '@passada/core/contracts/teams';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { FormStatus, primaryButtonClass } from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { eventQuery } from '../../../lib/events-api.ts';
import { useSession } from '../../../lib/session.tsx';
import { teamClaimQuery, useClaimTeamPlace } from '../../../lib/teams-api.ts';
import { ParticipantFields } from '../components/participant-form.tsx';
import { RaceFields } from '../components/race-fields.tsx';
import { useParticipantForm } from '../hooks/use-participant-form.ts';

const Frame = ({ children }: { children: ReactNode }) => (
  <main className="mx-auto max-w-3xl px-4 py-10">{children}</main>
);

/**
 * /equipes/vagas/{token} (docs/decisions/0073): a member takes one of the places their team's captain
 * paid for, with their own data; the server runs every rule of a registration and nothing is charged.
 */
export default function TeamClaimPage() {
  const { token = '' } = useParams();
  const view = useQuery(teamClaimQuery(token));
  if (view.isPending)
    return (
      <Frame>
        <p role="status">Carregando vagas da equipe...</p>
      </Frame>
    );
  if (!view.data)
    return (
      <Frame>
        <h1 className="text-2xl font-bold">Link de vaga não encontrado.</h1>
        <p className="mt-4">Confira o link que o capitão da sua equipe enviou.</p>
      </Frame>
    );
  return <Claim token={token} view={view.data} />;
}

function Claim({ token, view }: { token: string; view: TeamClaimView }) {
  const { profile } = useSession();
  const eventQ = useQuery(eventQuery(String(view.evento.id)));
  const claim = useClaimTeamPlace(token);
  const [done, setDone] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const start = { paraMim: false, eventoId: view.evento.id, categorias: [view.categoria.id] };
  const { form } = useParticipantForm(start, eventQ.data?.termo_versao);
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = form;
  // Most members take the place for themselves: their name and e-mail come filled in, editable.
  const filled = useRef(false);
  useEffect(() => {
    if (filled.current || !profile) return;
    filled.current = true;
    setValue('nome_completo', profile.full_name);
    setValue('email', profile.email);
  }, [profile, setValue]);

  const heading = (
    <>
      <h1 className="text-2xl font-bold">Vaga da equipe {view.equipe}</h1>
      <p className="mt-2">
        {view.evento.nome}, {view.categoria.nome}. A inscrição já foi paga pela equipe: preencha os seus dados
        até {formatIsoDateBR(view.prazo)}.
      </p>
    </>
  );
  if (done !== null)
    return (
      <Frame>
        {heading}
        <p role="status" className="mt-6 font-semibold">
          Inscrição nº {done} confirmada! Você receberá o QR code da retirada do kit por e-mail.
        </p>
        <Link className="mt-4 inline-block underline" to="/user/inscricoes">
          Ver minhas inscrições
        </Link>
      </Frame>
    );
  if (!view.aberto || view.disponiveis === 0)
    return (
      <Frame>
        {heading}
        <p className="mt-6">
          {view.aberto
            ? 'Todas as vagas desta equipe já foram usadas. Fale com o capitão.'
            : 'O prazo para usar as vagas desta equipe terminou.'}
        </p>
      </Frame>
    );
  const event = eventQ.data;
  if (!event)
    return (
      <Frame>
        <p role="status">Carregando evento...</p>
      </Frame>
    );
  const submit = (data: Participant) => {
    setMessage(null);
    claim.mutate(data, {
      onSuccess: (r) => setDone(r.inscricao_id),
      onError: (err) => {
        const fields = err instanceof ApiRequestError ? err.body?.errors : undefined;
        for (const [field, text] of Object.entries(fields ?? {}))
          setError(field as keyof Participant, { message: text });
        setMessage(
          err instanceof ApiRequestError
            ? (err.body?.detail ?? err.message)
            : 'Não foi possível confirmar. Tente de novo.',
        );
      },
    });
  };
  return (
    <Frame>
      {heading}
      <p className="mt-2 text-sm">
        {view.disponiveis} {view.disponiveis === 1 ? 'vaga restante' : 'vagas restantes'}.
      </p>
      <form
        className="mt-6"
        noValidate
        onSubmit={(e) => void handleSubmit(submit)(e)}
        aria-labelledby="dados-titulo"
      >
        <h2 id="dados-titulo" className="mb-4 text-lg font-semibold">
          Seus dados
        </h2>
        <fieldset disabled={claim.isPending} className="contents">
          <ParticipantFields register={register} errors={errors} lockProfile={false} lockAddress={false} />
          <RaceFields
            event={event}
            register={register}
            errors={errors}
            control={form.control}
            teamFields={false}
          />
        </fieldset>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={claim.isPending}>
            Confirmar minha inscrição
          </button>
          <FormStatus message={message} tone="error" />
        </div>
      </form>
      <AfterSaleRules eventId={view.evento.id} />
    </Frame>
  );
}
