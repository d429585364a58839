import { formatBRL, reaisToCents } from '@passada/core/money';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { FormStatus, linkClass, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { useEvent } from '../api/events.ts';
import { fetchTeamsCsv, useEventTeams } from '../api/teams.ts';

const card = 'rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900';

/**
 * `/painel/eventos/:id/equipes` (docs/decisions/0067-teams.md): the event's teams, and the season's teams
 * with members in it, each with its captain, code, open or closed, the places its captain bought
 * (docs/decisions/0073) and its members registered here: what they paid (or that the team's place paid
 * it) and whether the kit went out. A CSV with one line per member.
 */
export default function TeamsPage() {
  const eventId = Number(useParams().id);
  const event = useEvent(eventId);
  const teams = useEventTeams(eventId);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    const file = await fetchTeamsCsv(eventId);
    if (!file) setError(errorMessage(null));
    else saveFile(file);
  };
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Equipes{event.data ? `: ${event.data.nome_evento}` : ''}</h1>
      <p className="text-sm">
        Equipes criadas pelos capitães em "Minha conta". Quem se inscreve com o código da equipe entra nela; o
        nome da equipe vai para a inscrição, o ingresso, a mesa de kits e o CSV da cronometragem.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={secondaryButtonClass} onClick={() => void download()}>
          Baixar equipes (CSV)
        </button>
        <FormStatus message={error} tone="error" />
      </div>
      {teams.error ? <FormStatus message={errorMessage(teams.error)} tone="error" /> : null}
      {teams.data?.length === 0 ? <p>Nenhuma equipe neste evento.</p> : null}
      {teams.data?.map((team) => {
        const paid = team.membros.reduce((sum, m) => sum + m.pago_centavos, 0);
        const bought = team.vagas.reduce(
          (sum, b) => sum + b.quantidade * b.preco * 100 - b.devolvido * 100,
          0,
        );
        const picked = team.membros.filter((m) => m.kit_retirado).length;
        return (
          <section key={team.id} aria-labelledby={`equipe-${team.id}`} className={card}>
            <h2 id={`equipe-${team.id}`} className="text-lg font-semibold">
              {team.nome}
            </h2>
            <p className="text-sm">
              Código <span className="font-mono">{team.codigo}</span> ·{' '}
              {team.evento_id === null ? 'equipe da temporada' : 'equipe deste evento'} ·{' '}
              {team.aberta ? 'aceitando membros' : 'fechada'} · capitão{' '}
              {team.capitao ? `${team.capitao.nome} (${team.capitao.email})` : 'conta excluída'}
            </p>
            <p className="text-sm">
              {team.membros.length} {team.membros.length === 1 ? 'membro inscrito' : 'membros inscritos'},{' '}
              {formatBRL(paid)} pagos, {picked} {picked === 1 ? 'kit retirado' : 'kits retirados'}
            </p>
            {team.vagas.length > 0 ? (
              <>
                <p className="text-sm">
                  Vagas pagas pelo capitão: {formatBRL(bought)} (já descontado o devolvido).
                </p>
                <ul className="text-sm">
                  {team.vagas.map((b) => (
                    <li key={b.id}>
                      {b.quantidade} vagas de {b.categoria.nome} a {formatBRL(reaisToCents(b.preco))}
                      {b.parte_membro > 0
                        ? ` (${b.percentual}% de cada; cada membro paga ${formatBRL(reaisToCents(b.parte_membro))})`
                        : ''}
                      : {b.resgatadas} {b.resgatadas === 1 ? 'usada' : 'usadas'}, {b.disponiveis} à espera de
                      membros
                      {b.encerrado_em
                        ? `; encerradas${b.devolvido > 0 ? `, ${formatBRL(reaisToCents(b.devolvido))} devolvidos` : ''}`
                        : ''}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {team.membros.length > 0 ? (
              <table className="mt-2 w-full text-left text-sm">
                <caption className="sr-only">Membros da equipe {team.nome}</caption>
                <thead>
                  <tr>
                    <th scope="col">Inscrição</th>
                    <th scope="col">Nome</th>
                    <th scope="col">Categorias</th>
                    <th scope="col">Pago</th>
                    <th scope="col">Kit</th>
                  </tr>
                </thead>
                <tbody>
                  {team.membros.map((m) => (
                    <tr key={m.inscricao} className="border-t border-stone-200 dark:border-stone-800">
                      <td>
                        <Link to={`/painel/inscricoes/${m.inscricao}`} className={linkClass}>
                          {m.inscricao}
                        </Link>
                      </td>
                      <td>{m.nome}</td>
                      <td>{m.categorias.join(', ')}</td>
                      <td>{m.vaga_da_equipe ? 'Vaga da equipe' : formatBRL(m.pago_centavos)}</td>
                      <td>{m.kit_retirado ? 'Retirado' : 'A retirar'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </section>
        );
      })}
    </section>
  );
}
