import { formatStoreDateTime } from '@passada/core/calendar';
import { WAITLIST_STATUS_LABELS } from '@passada/core/contracts/waitlist';
import { registrationStartToSearch } from '@passada/core/events';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormStatus,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { leaveWaitlist, waitlistEntryQuery } from '../../../lib/waitlist-api.ts';

/**
 * /eventos/lista-espera/{link} (docs/decisions/0042-waitlist.md): the runner's place in a waitlist,
 * reached through the signed link of their e-mail: the position, the offered place and its deadline
 * (with the way into the registration), and leaving the list.
 */
export default function WaitlistPage() {
  const { token = '' } = useParams();
  const client = useQueryClient();
  const query = useQuery(waitlistEntryQuery(token));
  const [status, setStatus] = useState<{ message: string; tone: 'success' | 'error' } | null>(null);
  const [leaving, setLeaving] = useState(false);

  if (query.isPending)
    return (
      <main className="mx-auto max-w-2xl px-4 py-10">
        <p role="status">Carregando...</p>
      </main>
    );
  if (!query.data)
    return (
      <main className="mx-auto max-w-2xl px-4 py-10">
        <h1 className="text-2xl font-bold">Link da lista de espera inválido.</h1>
        <p className="mt-4">Confira se você abriu o link completo do e-mail.</p>
      </main>
    );
  const entry = query.data;

  async function leave() {
    setStatus(null);
    setLeaving(true);
    try {
      client.setQueryData(waitlistEntryQuery(token).queryKey, await leaveWaitlist(token));
      setStatus({ message: 'Você saiu da lista de espera.', tone: 'success' });
    } catch (error) {
      setStatus({
        message:
          error instanceof ApiRequestError
            ? (error.body?.detail ?? 'Não foi possível sair da lista.')
            : 'Não foi possível sair da lista.',
        tone: 'error',
      });
    } finally {
      setLeaving(false);
    }
  }

  const register = `/eventos/register/${entry.evento}/finalizar?${registrationStartToSearch({
    paraMim: true,
    eventoId: entry.evento,
    categorias: [entry.categoria],
  })}&oferta=${encodeURIComponent(token)}`;

  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-2xl font-bold">Lista de espera</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="font-semibold">Evento</dt>
        <dd>{entry.evento_nome}</dd>
        <dt className="font-semibold">Categoria</dt>
        <dd>{entry.categoria_nome}</dd>
        <dt className="font-semibold">Nome</dt>
        <dd>{entry.nome_completo}</dd>
        <dt className="font-semibold">Situação</dt>
        <dd>{WAITLIST_STATUS_LABELS[entry.status]}</dd>
        {entry.posicao !== null ? (
          <>
            <dt className="font-semibold">Posição na fila</dt>
            <dd>{entry.posicao}</dd>
          </>
        ) : null}
      </dl>
      {entry.status === 'oferta' && entry.oferta_expira_em ? (
        <p className="mt-6 rounded-lg bg-green-50 p-3 dark:bg-green-950">
          Uma vaga está reservada para você até {formatStoreDateTime(new Date(entry.oferta_expira_em))}. Faça
          a inscrição com o seu CPF e pague dentro desse prazo.{' '}
          <Link to={register} className={linkClass}>
            Fazer a inscrição
          </Link>
        </p>
      ) : null}
      <FormStatus message={status?.message ?? null} tone={status?.tone ?? 'success'} />
      <div className="mt-6 flex flex-wrap gap-4">
        {entry.status === 'aguardando' || entry.status === 'oferta' ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={leaving}
            onClick={() => void leave()}
          >
            Sair da lista de espera
          </button>
        ) : null}
        <Link to={`/eventos/register/${entry.evento}`} className={primaryButtonClass}>
          Ver o evento
        </Link>
      </div>
    </main>
  );
}
