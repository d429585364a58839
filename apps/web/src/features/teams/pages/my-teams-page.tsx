import type { MyTeam } from '@passada/core/contracts/teams';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { AccountLayout } from '../../../components/account-layout.tsx';
import { useCopyLink } from '../../../components/copy-link.tsx';
import {
  FormField,
  FormStatus,
  primaryButtonClass,
  SelectField,
  secondaryButtonClass,
} from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { myTeamsQuery, openEventsQuery, useCreateTeam, useSetTeamOpen } from '../api/teams-api.ts';
import { TeamInvites } from '../components/team-invites.tsx';
import { TeamPlaces } from '../components/team-places.tsx';
import { TeamQuotaList } from '../components/team-quotas.tsx';

const errorText = (err: unknown) =>
  err instanceof ApiRequestError
    ? (err.body?.detail ?? err.message)
    : 'Não foi possível salvar. Tente de novo.';

/**
 * /user/equipes (docs/decisions/0067-teams.md): the captain makes a team for one race or for the season,
 * shares its code or invite link, sees who joined (name and distance) and closes it to new members.
 */
export default function MyTeamsPage() {
  const teams = useQuery(myTeamsQuery);
  return (
    <AccountLayout title="Minhas equipes">
      <div className="flex flex-col gap-8">
        <NewTeamForm />
        <section aria-labelledby="equipes-titulo">
          <h2 id="equipes-titulo" className="text-lg font-semibold">
            Equipes de que sou capitão
          </h2>
          {teams.isPending ? (
            <p role="status">Carregando…</p>
          ) : teams.isError ? (
            <p role="alert" className="text-red-700 dark:text-red-400">
              Não foi possível carregar suas equipes.
            </p>
          ) : teams.data.length === 0 ? (
            <p className="mt-2 text-stone-600 dark:text-stone-400">Você ainda não criou nenhuma equipe.</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-4">
              {teams.data.map((team) => (
                <TeamCard key={team.id} team={team} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </AccountLayout>
  );
}

function NewTeamForm() {
  const events = useQuery(openEventsQuery);
  const create = useCreateTeam();
  const [name, setName] = useState('');
  const [event, setEvent] = useState('');
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    setNameError(undefined);
    try {
      const made = await create.mutateAsync({ nome: name, evento: event === '' ? null : Number(event) });
      setName('');
      setMessage({ text: `Equipe ${made.nome} criada. Código: ${made.codigo}.`, tone: 'success' });
    } catch (err) {
      const field = err instanceof ApiRequestError ? err.body?.errors?.nome : undefined;
      if (field) setNameError(field);
      else setMessage({ text: errorText(err), tone: 'error' });
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="nova-equipe"
      className="rounded-xl border border-stone-200 p-5 dark:border-stone-800"
    >
      <h2 id="nova-equipe" className="text-lg font-semibold">
        Criar equipe
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Assessoria, empresa ou amigos: quem se inscrever com o código da equipe entra nela. Você vê o nome e a
        distância de cada membro; os demais dados ficam com a organização.
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <FormField
          label="Nome da equipe"
          value={name}
          maxLength={80}
          error={nameError}
          onChange={(e) => setName(e.target.value)}
        />
        <SelectField label="Corrida" value={event} onChange={(e) => setEvent(e.target.value)}>
          <option value="">Todas as corridas da temporada</option>
          {(events.data ?? []).map((ev) => (
            <option key={ev.id} value={ev.id}>
              {ev.nome_evento}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" className={primaryButtonClass} disabled={create.isPending}>
          Criar equipe
        </button>
        <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      </div>
    </form>
  );
}

function TeamCard({ team }: { team: MyTeam }) {
  const setOpen = useSetTeamOpen();
  const link = `${window.location.origin}${team.convite}`;
  const { said: copied, copy } = useCopyLink(link);
  const headingId = `equipe-${team.id}`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-stone-200 p-5 dark:border-stone-800">
      <h3 id={headingId} className="text-base font-semibold">
        {team.nome}
      </h3>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-stone-600 dark:text-stone-400">Corrida</dt>
        <dd>{team.evento?.nome ?? 'Todas as corridas da temporada'}</dd>
        <dt className="font-medium text-stone-600 dark:text-stone-400">Código</dt>
        <dd className="font-mono tracking-wider">{team.codigo}</dd>
        <dt className="font-medium text-stone-600 dark:text-stone-400">Convite</dt>
        <dd className="break-all">{link}</dd>
        <dt className="font-medium text-stone-600 dark:text-stone-400">Situação</dt>
        <dd>{team.aberta ? 'Aceitando membros' : 'Fechada a novos membros'}</dd>
      </dl>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          Copiar link de convite da equipe {team.nome}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={setOpen.isPending}
          onClick={() => setOpen.mutate({ id: team.id, aberta: !team.aberta })}
        >
          {team.aberta ? `Fechar a equipe ${team.nome}` : `Reabrir a equipe ${team.nome}`}
        </button>
        {copied ? <p role="status">{copied}</p> : null}
        {setOpen.isError ? <FormStatus message={errorText(setOpen.error)} tone="error" /> : null}
      </div>
      <h4 className="mt-4 font-medium">
        {team.membros.length === 0
          ? 'Ninguém entrou ainda.'
          : `${team.membros.length} ${team.membros.length === 1 ? 'membro' : 'membros'}`}
      </h4>
      {team.membros.length > 0 ? (
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Membros da equipe {team.nome}</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-3">
                Nome
              </th>
              <th scope="col" className="py-1 pr-3">
                Corrida
              </th>
              <th scope="col" className="py-1">
                Distância
              </th>
            </tr>
          </thead>
          <tbody>
            {team.membros.map((m) => (
              <tr
                key={`${m.evento}-${m.inscrito_em}-${m.nome}`}
                className="border-t border-stone-200 dark:border-stone-800"
              >
                <td className="py-1 pr-3">{m.nome}</td>
                <td className="py-1 pr-3">{m.evento}</td>
                <td className="py-1">{m.categorias.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <TeamInvites team={team} />
      <TeamQuotaList team={team} />
      <TeamPlaces team={team} />
    </li>
  );
}
