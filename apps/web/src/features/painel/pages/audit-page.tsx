import { useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { useAudit } from '../api/audit.ts';
import { DataTable } from '../components/data-table.tsx';
import { Pager } from '../components/pager.tsx';

const PAGE_SIZE = 50;

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-stone-500">—</span>;
  return (
    <pre className="max-h-40 max-w-sm overflow-auto text-xs whitespace-pre-wrap">
      {JSON.stringify(value, null, 1)}
    </pre>
  );
}

/** Admins only: who changed what, when, with the record before and after. */
export default function AuditPage() {
  const [page, setPage] = useState(1);
  const log = useAudit(page);
  const pages = Math.max(1, Math.ceil((log.data?.count ?? 0) / PAGE_SIZE));
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Registro de alterações</h1>
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
          { header: 'O quê', cell: (e) => `${e.entity} ${e.entity_id ?? ''}: ${e.action}` },
          { header: 'Antes', cell: (e) => <Json value={e.before} /> },
          { header: 'Depois', cell: (e) => <Json value={e.after} /> },
        ]}
      />
      <Pager page={page} pages={pages} label="Páginas do registro" onPage={setPage} />
    </section>
  );
}
