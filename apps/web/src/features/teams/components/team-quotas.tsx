import { formatStoreDateTime } from '@passada/core/calendar';
import type { MyTeam } from '@passada/core/contracts/teams';
import { plural } from '@passada/core/plural';

/**
 * Places the organiser reserved for the team at an opening (docs/decisions/0076): the captain tells the
 * members to register with the team's code, without waiting their turn or being drawn, while some are left.
 */
export function TeamQuotaList({ team }: { team: MyTeam }) {
  if (team.cotas.length === 0) return null;
  return (
    <section aria-labelledby={`cotas-${team.id}`} className="mt-4">
      <h4 id={`cotas-${team.id}`} className="font-medium">
        Vagas reservadas pela organização
      </h4>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Os membros se inscrevem com o código {team.codigo}, sem esperar a vez na fila nem o sorteio, enquanto
        houver vagas reservadas. Cada um paga a própria inscrição.
      </p>
      <ul className="mt-2 space-y-1 text-sm">
        {team.cotas.map((q) => (
          <li key={`${q.evento}-${q.categoria}`}>
            {q.evento}, {q.categoria}: {plural(q.vagas, 'vaga reservada', 'vagas reservadas')},{' '}
            {plural(q.usadas, 'usada', 'usadas')}
            {q.ate ? ` (valem até ${formatStoreDateTime(new Date(q.ate))})` : ''}.
          </li>
        ))}
      </ul>
    </section>
  );
}
