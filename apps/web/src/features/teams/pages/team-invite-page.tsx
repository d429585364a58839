import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { FormStatus, primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { teamInviteQuery, useAnswerInvite } from '../api/teams-api.ts';

/**
 * /equipes/convite/{token} (docs/decisions/0075): the person a captain invited confirms or refuses; a
 * refusal erases the name and e-mail the captain gave.
 */
export default function TeamInvitePage() {
  const { token = '' } = useParams();
  const invite = useQuery(teamInviteQuery(token));
  const answer = useAnswerInvite(token);
  const shown = answer.data ?? invite.data;
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-2xl font-bold">Convite de equipe</h1>
      {invite.isPending ? <p role="status">Carregando convite...</p> : null}
      {answer.isSuccess && answer.data === null ? (
        <p role="status" className="mt-4">
          Convite recusado. O seu nome e o seu e-mail foram apagados.
        </p>
      ) : !invite.isPending && !shown ? (
        <p className="mt-4">Convite não encontrado: ele pode ter sido recusado ou ter expirado.</p>
      ) : shown ? (
        <>
          <p className="mt-4">
            Olá, {shown.nome}! {shown.capitao ?? 'O capitão'} convidou você para a equipe{' '}
            <strong>{shown.equipe}</strong>
            {shown.evento ? ` na ${shown.evento}` : ''}.
          </p>
          {shown.situacao === 'confirmado' ? (
            <>
              <p role="status" className="mt-4 font-semibold">
                Você confirmou: está na lista da equipe.
              </p>
              {shown.convite ? (
                <Link className={`${primaryButtonClass} mt-4 inline-block`} to={shown.convite}>
                  Fazer minha inscrição com a equipe
                </Link>
              ) : null}
            </>
          ) : (
            <div className="mt-6 flex flex-wrap gap-3">
              <button
                type="button"
                className={primaryButtonClass}
                disabled={answer.isPending}
                onClick={() => answer.mutate(true)}
              >
                Confirmar
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={answer.isPending}
                onClick={() => answer.mutate(false)}
              >
                Recusar e apagar meus dados
              </button>
            </div>
          )}
          {answer.isError ? (
            <FormStatus
              message={
                answer.error instanceof ApiRequestError
                  ? (answer.error.body?.detail ?? answer.error.message)
                  : 'Não foi possível responder. Tente de novo.'
              }
              tone="error"
            />
          ) : null}
        </>
      ) : null}
    </main>
  );
}
