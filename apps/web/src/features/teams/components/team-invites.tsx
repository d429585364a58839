import type { MyTeam } from '@passada/core/contracts/teams';
import { type FormEvent, useState } from 'react';
import { FormStatus, secondaryButtonClass } from '../../../components/form-field.tsx';
import { ApiRequestError } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { useImportInvites } from '../api/teams-api.ts';

/**
 * The captain's list of members (docs/decisions/0075): a CSV with the columns Nome and E-mail (as Excel
 * saves it), each person invited by e-mail to confirm; the captain sees who confirmed.
 */
export function TeamInvites({ team }: { team: MyTeam }) {
  const send = useImportInvites();
  const [file, setFile] = useState<File | null>(null);
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    if (!file) return setMessage({ text: 'Escolha o arquivo da lista.', tone: 'error' });
    try {
      const done = await send.mutateAsync({ team: team.id, arquivo: await file.text() });
      setMessage({
        text: `${done.convidados} ${done.convidados === 1 ? 'convite enviado' : 'convites enviados'}${done.ja_convidados ? `; ${done.ja_convidados} já convidados antes` : ''}.`,
        tone: 'success',
      });
    } catch (err) {
      setMessage({
        text: err instanceof ApiRequestError ? (err.body?.detail ?? err.message) : 'Não foi possível enviar.',
        tone: 'error',
      });
    }
  };
  const id = `convites-${team.id}`;
  return (
    <section aria-labelledby={id} className="mt-4">
      <h4 id={id} className="font-medium">
        Convidar membros por lista
      </h4>
      <form onSubmit={(e) => void submit(e)} noValidate className="mt-2 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          {`Lista da equipe ${team.nome} (CSV com as colunas Nome e E-mail)`}
          <input
            type="file"
            accept=".csv,.txt,text/csv"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <button type="submit" className={secondaryButtonClass} disabled={send.isPending}>
          Enviar convites
        </button>
        <FormStatus message={message?.text ?? null} tone={message?.tone ?? 'success'} />
      </form>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Cada pessoa recebe um e-mail para confirmar ou recusar; quem recusa, ou não responde, tem o nome e o
        e-mail apagados.
      </p>
      {team.convites.length > 0 ? (
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Convidados da equipe {team.nome}</caption>
          <thead>
            <tr>
              <th scope="col">Nome</th>
              <th scope="col">E-mail</th>
              <th scope="col">Situação</th>
            </tr>
          </thead>
          <tbody>
            {team.convites.map((c) => (
              <tr
                key={`${c.email}-${c.enviado_em}`}
                className="border-t border-stone-200 dark:border-stone-800"
              >
                <td>{c.nome}</td>
                <td>{c.email}</td>
                <td>
                  {c.situacao === 'confirmado'
                    ? 'Confirmou'
                    : `Convite enviado em ${formatDate(c.enviado_em)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
