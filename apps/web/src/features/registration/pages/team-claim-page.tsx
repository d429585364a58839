import { formatIsoDateBR } from '@passada/core/calendar';
import type { Participant } from '@passada/core/contracts/registrations';
import type { TeamClaimPaidDraft, TeamClaimView } from '@passada/core/contracts/teams';
import { reaisToCents } from '@passada/core/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AfterSaleRules } from '../../../components/after-sale-rules.tsx';
import { useAlert } from '../../../components/dialog.tsx';
import { FormStatus, primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import {
  type PaymentMethod,
  PaymentMethodButtons,
  PaymentStep,
  usePaymentStep,
} from '../../../components/payments/payment-step.tsx';
import { formatReais } from '../../../components/price.tsx';
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
 * paid for, with their own data; the server runs every rule of a registration. Nothing is charged when
 * the team paid the whole place; when it paid a share (0079), the member pays the rest by Pix or card.
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
  const [alertElement, showAlert] = useAlert();
  // A place the team paid part of: the member's part, paid like any registration.
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [draft, setDraft] = useState<TeamClaimPaidDraft | null>(null);
  const client = useQueryClient();
  const step = usePaymentStep({
    fulfil: () => client.invalidateQueries({ queryKey: ['team-claim', token] }),
    texts: {
      finishing: 'Confirmando inscrição...',
      failure: 'Erro ao confirmar a inscrição.',
      successTitle: 'Inscrição confirmada!',
      successText: 'Você receberá o QR code da retirada do kit por e-mail.',
    },
    redirectTo: '/user/inscricoes',
    leaveOnClose: true,
    showAlert,
  });
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
        {view.evento.nome}, {view.categoria.nome}.{' '}
        {view.a_pagar > 0
          ? `A equipe pagou ${view.percentual}% da inscrição: a sua parte é ${formatReais(view.a_pagar)}, paga com Pix ou cartão.`
          : 'A inscrição já foi paga pela equipe.'}{' '}
        Preencha os seus dados até {formatIsoDateBR(view.prazo)}.
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
  const choose = (next: PaymentMethod) =>
    void handleSubmit((data) => {
      setDraft({ vaga_equipe: token, participante: data });
      setMethod(next);
    })();
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
        <fieldset disabled={claim.isPending || method !== null || step.locked} className="contents">
          <ParticipantFields register={register} errors={errors} lockProfile={false} lockAddress={false} />
          <RaceFields
            event={event}
            register={register}
            errors={errors}
            control={form.control}
            teamFields={false}
          />
        </fieldset>
        {view.a_pagar > 0 ? null : (
          <div className="mt-6 flex flex-wrap items-center gap-3">
            <button type="submit" className={primaryButtonClass} disabled={claim.isPending}>
              Confirmar minha inscrição
            </button>
            <FormStatus message={message} tone="error" />
          </div>
        )}
      </form>
      {view.a_pagar > 0 ? (
        <section aria-labelledby="pagamento-titulo" className="mt-8">
          <h2 id="pagamento-titulo" className="text-lg font-semibold">
            Pagar a minha parte: {formatReais(view.a_pagar)}
          </h2>
          <PaymentMethodButtons method={method} locked={method === 'pix' || step.locked} onChoose={choose} />
          <div className="mt-6">
            <PaymentStep
              step={step}
              method={draft ? method : null}
              purpose="inscricao"
              draft={draft}
              totalCents={reaisToCents(view.a_pagar)}
              description={`Inscrição ${view.evento.nome} (vaga da equipe ${view.equipe})`}
              payer={{ email: profile?.email ?? draft?.participante.email?.toString() ?? '' }}
              headings={{ pix: 'Pagamento com Pix', cartao: 'Pagamento com cartão' }}
              onPixError={showAlert}
            />
          </div>
          {method !== null && !step.locked ? (
            <button
              type="button"
              className={`${secondaryButtonClass} mt-3`}
              onClick={() => {
                setMethod(null);
                setDraft(null);
              }}
            >
              Mudar os meus dados
            </button>
          ) : null}
        </section>
      ) : null}
      {alertElement}
      <AfterSaleRules eventId={view.evento.id} />
    </Frame>
  );
}
