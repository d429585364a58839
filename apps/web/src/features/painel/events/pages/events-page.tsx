import { formatIsoDateBR } from '@passada/core/events';
import { Link } from 'react-router';
import { linkClass, primaryButtonClass, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { useStaffCan } from '../../shell/api/auth.ts';
import { useEvents } from '../../shell/api/event-lists.ts';
import { DataTable } from '../../shell/components/data-table.tsx';

export default function EventsPage() {
  const events = useEvents();
  const canEdit = useStaffCan('eventos');
  const canCheckIn = useStaffCan('checkin');
  return (
    <section>
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-bold">Eventos</h1>
        <div className="flex gap-2">
          {canEdit ? (
            <Link to="/painel/eventos/novo" className={secondaryButtonClass}>
              Novo evento
            </Link>
          ) : null}
          {canCheckIn ? (
            <Link to="/painel/checkin" className={primaryButtonClass}>
              Check-in (retirada de kits)
            </Link>
          ) : null}
        </div>
      </div>
      <DataTable
        label="Eventos"
        rows={events.data}
        rowKey={(e) => e.id}
        empty="Nenhum evento ainda."
        columns={[
          {
            header: 'Evento',
            rowHeader: true,
            cell: (e) => (
              <Link to={`/painel/eventos/${e.id}`} className={linkClass}>
                {e.nome_evento}
              </Link>
            ),
          },
          { header: 'Data', cell: (e) => formatIsoDateBR(e.start_data_evento) },
          { header: 'Inscritos', cell: (e) => e.inscritos },
          { header: 'Kits retirados', cell: (e) => e.retirados },
          { header: 'Inscrições', cell: (e) => (e.inscricoes_abertas ? 'Abertas' : 'Encerradas') },
          {
            header: 'Ações',
            hideHeader: true,
            cell: (e) =>
              canEdit ? (
                <div className="flex gap-3">
                  <Link
                    to={`/painel/eventos/${e.id}/editar`}
                    className={linkClass}
                    aria-label={`Editar ${e.nome_evento}`}
                  >
                    Editar
                  </Link>
                  <Link
                    to={`/painel/eventos/${e.id}/abertura`}
                    className={linkClass}
                    aria-label={`Abertura das inscrições de ${e.nome_evento}`}
                  >
                    Abertura
                  </Link>
                  <Link
                    to={`/painel/eventos/${e.id}/resultados`}
                    className={linkClass}
                    aria-label={`Resultados de ${e.nome_evento}`}
                  >
                    Resultados
                  </Link>
                  <Link
                    to={`/painel/eventos/${e.id}/ondas`}
                    className={linkClass}
                    aria-label={`Ondas de largada de ${e.nome_evento}`}
                  >
                    Ondas
                  </Link>
                  <Link
                    to={`/painel/eventos/${e.id}/equipes`}
                    className={linkClass}
                    aria-label={`Equipes de ${e.nome_evento}`}
                  >
                    Equipes
                  </Link>
                  <Link
                    to={`/painel/eventos/${e.id}/precos`}
                    className={linkClass}
                    aria-label={`Preços especiais de ${e.nome_evento}`}
                  >
                    Preços especiais
                  </Link>
                </div>
              ) : null,
          },
        ]}
      />
    </section>
  );
}
