import type { AuditEntry } from '@passada/core/contracts/painel';
import { AUDIT_ENTITY_LABELS } from '@passada/core/contracts/painel';
import { type FormEvent, useState } from 'react';
import { FormField, SelectField, secondaryButtonClass } from '../../../../components/form-field.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { DataTable } from '../../shell/components/data-table.tsx';
import { Pager } from '../../shell/components/pager.tsx';
import { errorMessage } from '../../shell/utils/error-message.ts';
import { type AuditFilters, useAudit } from '../api/audit.ts';

const PAGE_SIZE = 50;
const NO_FILTERS: AuditFilters = { staff: '', entity: '', desde: '', ate: '' };

/** The fields an entry changed, one line each: "Preço: R$ 79,90 → R$ 89,90". */
function Changes({ entry }: { entry: AuditEntry }) {
  if (!entry.alteracoes.length) return <span className="text-stone-500">—</span>;
  return (
    <ul className="text-sm">
      {entry.alteracoes.map((c) => (
        <li key={c.campo}>
          <span className="font-medium">{c.campo}:</span> {c.antes} → {c.depois}
        </li>
      ))}
    </ul>
  );
}

/** Permission `equipe`: who changed what, when, with the fields that changed; filters on the server. */
export default function AuditPage() {
  const [draft, setDraft] = useState(NO_FILTERS);
  const [filters, setFilters] = useState(NO_FILTERS);
  const [page, setPage] = useState(1);
  const log = useAudit(filters, page);
  const pages = Math.max(1, Math.ceil((log.data?.count ?? 0) / PAGE_SIZE));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const field = (key: keyof AuditFilters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Registro de alterações</h1>
      <form
        onSubmit={apply}
        aria-label="Filtrar o registro"
        className="mb-4 grid max-w-4xl grid-cols-2 items-end gap-3 md:grid-cols-5"
      >
        <FormField label="Quem (e-mail)" {...field('staff')} />
        <SelectField label="O quê" {...field('entity')}>
          <option value="">Tudo</option>
          {Object.entries(AUDIT_ENTITY_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <FormField label="De" type="date" {...field('desde')} />
        <FormField label="Até" type="date" {...field('ate')} />
        <button type="submit" className={secondaryButtonClass}>
          Filtrar
        </button>
      </form>
      {log.isError ? <p role="alert">{errorMessage(log.error)}</p> : null}
      <p className="mb-2 text-sm" aria-live="polite">
        {log.data ? `${log.data.count} alterações encontradas.` : 'Carregando…'}
      </p>
      <DataTable
        label="Alterações"
        rows={log.data?.results}
        rowKey={(e) => e.id}
        empty="Nenhuma alteração registrada."
        columns={[
          {
            header: 'Quando',
            className: 'whitespace-nowrap',
            cell: (e) => formatDateTime(e.at, { seconds: true }),
          },
          { header: 'Quem', cell: (e) => e.staff_email },
          {
            header: 'O quê',
            cell: (e) => `${e.alvo}: ${e.action.replace(/_/g, ' ')}`,
          },
          { header: 'Alterações', cell: (e) => <Changes entry={e} /> },
        ]}
      />
      <Pager page={page} pages={pages} label="Páginas do registro" onPage={setPage} />
    </section>
  );
}
