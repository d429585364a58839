import { PERSONAL_DATA_PERMISSIONS } from '@passada/core/contracts/painel';
import { formatIsoDateBR, formatRegistrationPrice } from '@passada/core/events';
import { reaisToCents } from '@passada/core/money';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  FormField,
  FormStatus,
  linkClass,
  SelectField,
  secondaryButtonClass,
} from '../../../../components/form-field.tsx';
import { useStaffCan } from '../../shell/api/auth.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { saveFile } from '../../shell/utils/save-file.ts';
import { fetchParticipantsCsv, useParticipants } from '../api/participants.ts';
import { BibAssignment, ShirtReport } from '../components/bib-assignment.tsx';

/**
 * One event's participants: filters, search, counts per category (cancelled registrations listed but
 * not counted), each registration's own page, and the CSV for the timing company.
 */
export default function ParticipantsPage() {
  const eventId = Number(useParams().id);
  const [category, setCategory] = useState('');
  const [day, setDay] = useState('');
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const mayExport = useStaffCan([...PERSONAL_DATA_PERMISSIONS]);
  // Numbering is the events' (`eventos`); who only ships orders reads the list without its buttons.
  const runsEvents = useStaffCan('eventos');
  const [error, setError] = useState<string | null>(null);
  const query = new URLSearchParams(
    Object.entries({ categoria: category, dia: day, status, busca: search }).filter(([, v]) => v),
  ).toString();
  const list = useParticipants(eventId, query);
  const counts = list.data?.contagem ?? [];
  const days = [...new Set(counts.map((c) => c.dia))];

  const download = async () => {
    setError(null);
    const file = await fetchParticipantsCsv(eventId, query);
    if (!file) {
      setError(errorMessage(null));
      return;
    }
    saveFile(file);
  };

  return (
    <section>
      <p className="mb-2">
        <Link to="/painel/eventos" className={linkClass}>
          ← Eventos
        </Link>
      </p>
      <h1 className="mb-4 text-2xl font-bold">Participantes</h1>
      <h2 className="mb-2 text-lg font-semibold">Inscritos por categoria</h2>
      <DataTable
        label="Inscritos por categoria"
        className="mb-6"
        rows={list.data?.contagem}
        rowKey={(c) => c.id}
        empty="Nenhuma categoria."
        columns={[
          { header: 'Categoria', rowHeader: true, cell: (c) => c.nome },
          { header: 'Dia', cell: (c) => formatIsoDateBR(c.dia) },
          { header: 'Inscritos', cell: (c) => c.inscritos },
          { header: 'Kits retirados', cell: (c) => c.retirados },
          { header: 'Vagas restantes', cell: (c) => c.vagas_restantes },
        ]}
      />
      <ShirtReport eventId={eventId} />
      {runsEvents ? <BibAssignment eventId={eventId} categories={counts} /> : null}
      <div className="mb-4 grid grid-cols-2 items-end gap-3 md:grid-cols-5">
        <SelectField label="Categoria" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">Todas</option>
          {counts.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nome} ({formatIsoDateBR(c.dia)})
            </option>
          ))}
        </SelectField>
        <SelectField label="Dia" value={day} onChange={(e) => setDay(e.target.value)}>
          <option value="">Todos</option>
          {days.map((d) => (
            <option key={d} value={d}>
              {formatIsoDateBR(d)}
            </option>
          ))}
        </SelectField>
        <SelectField label="Situação do kit" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Todas</option>
          <option value="retirado">Retirado</option>
          <option value="pendente">Pendente</option>
          <option value="cancelada">Inscrição cancelada</option>
        </SelectField>
        <FormField
          label="Buscar por nome ou CPF"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {/* The CSV carries everyone's whole personal data: who runs events only (docs/product.md §6). */}
        {mayExport ? (
          <button type="button" className={secondaryButtonClass} onClick={download}>
            Exportar CSV
          </button>
        ) : null}
      </div>
      <FormStatus message={error} tone="error" />
      <p className="mb-2 text-sm">
        {list.data ? `${list.data.results.length} participante(s)` : 'Carregando…'}
      </p>
      <DataTable
        label="Participantes"
        rows={list.data?.results}
        rowKey={(p) => p.id}
        empty="Nenhum participante encontrado."
        columns={[
          {
            header: 'Nº',
            rowHeader: true,
            cell: (p) => (
              <Link
                to={`/painel/inscricoes/${p.id}`}
                className={linkClass}
                aria-label={`Inscrição nº ${p.id} de ${p.nome_completo}`}
              >
                {p.id}
              </Link>
            ),
          },
          {
            header: 'Nome',
            cell: (p) => (
              <>
                {p.nome_completo}
                {/* Staff check a document at pickup when the 60+ half price was applied. */}
                {p.meia_entrada ? (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                    Meia 60+
                  </span>
                ) : null}
                {p.pcd ? (
                  <span className="ml-2 rounded bg-sky-100 px-1.5 text-xs font-semibold text-sky-900 dark:bg-sky-900 dark:text-sky-100">
                    PCD
                  </span>
                ) : null}
              </>
            ),
          },
          { header: 'CPF', cell: (p) => p.cpf },
          {
            header: 'Peito',
            cell: (p) =>
              p.categorias
                .map((c) => c.numero_peito)
                .filter((n) => n !== null)
                .filter((n, i, all) => all.indexOf(n) === i)
                .join(', ') || '—',
          },
          { header: 'Categorias', cell: (p) => p.categorias.map((c) => c.nome).join(', ') },
          { header: 'Faixa etária', cell: (p) => p.faixa_etaria },
          { header: 'Camisa', cell: (p) => p.tamanho_camisa ?? '—' },
          { header: 'Valor', cell: (p) => formatRegistrationPrice(reaisToCents(p.total)) },
          {
            header: 'Kit',
            cell: (p) =>
              p.cancelamento
                ? 'Inscrição cancelada'
                : p.retirada
                  ? `Retirado (${p.retirada.staff_name})`
                  : 'Pendente',
          },
        ]}
      />
    </section>
  );
}
