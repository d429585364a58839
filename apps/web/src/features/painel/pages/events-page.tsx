import { formatIsoDateBR } from '@passada/core/events';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { linkClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form-field.tsx';
import { painelFetch } from '../painel-api.ts';

interface EventSummary {
  id: number;
  nome_evento: string;
  start_data_evento: string;
  inscritos: number;
  retirados: number;
}

export default function EventsPage() {
  const events = useQuery({
    queryKey: ['painel', 'events'],
    queryFn: () => painelFetch<EventSummary[]>('/events/'),
  });
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-bold">Eventos</h1>
        <div className="flex gap-2">
          <Link to="/painel/eventos/novo" className={secondaryButtonClass}>
            Novo evento
          </Link>
          <Link to="/painel/checkin" className={primaryButtonClass}>
            Check-in (retirada de kits)
          </Link>
        </div>
      </div>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-stone-300">
            <th className="py-2">Evento</th>
            <th>Data</th>
            <th>Inscritos</th>
            <th>Kits retirados</th>
            <th>
              <span className="sr-only">Ações</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {events.data?.map((e) => (
            <tr key={e.id} className="border-b border-stone-200 dark:border-stone-800">
              <td className="py-2">
                <Link to={`/painel/eventos/${e.id}`} className={linkClass}>
                  {e.nome_evento}
                </Link>
              </td>
              <td>{formatIsoDateBR(e.start_data_evento)}</td>
              <td>{e.inscritos}</td>
              <td>{e.retirados}</td>
              <td>
                <Link to={`/painel/eventos/${e.id}/editar`} className={linkClass}>
                  Editar
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
