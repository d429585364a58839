import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { secondaryButtonClass } from '../../../components/form-field.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { painelFetch, painelKeys } from '../painel-api.ts';

interface AuditEntry {
  id: number;
  staff_email: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  at: string;
}

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
  const log = useQuery({
    queryKey: painelKeys.audit(page),
    queryFn: () => painelFetch<{ results: AuditEntry[]; count: number }>(`/audit/?page=${page}`),
  });
  const pages = Math.max(1, Math.ceil((log.data?.count ?? 0) / PAGE_SIZE));
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Registro de alterações</h1>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-stone-300">
            <th className="py-2">Quando</th>
            <th>Quem</th>
            <th>O quê</th>
            <th>Antes</th>
            <th>Depois</th>
          </tr>
        </thead>
        <tbody>
          {log.data?.results.map((e) => (
            <tr key={e.id} className="border-b border-stone-200 align-top dark:border-stone-800">
              <td className="py-2 whitespace-nowrap">{formatDateTime(e.at, { seconds: true })}</td>
              <td>{e.staff_email}</td>
              <td>
                {e.entity} {e.entity_id ?? ''}: {e.action}
              </td>
              <td>
                <Json value={e.before} />
              </td>
              <td>
                <Json value={e.after} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-4 flex items-center gap-3">
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={page <= 1}
          onClick={() => setPage(page - 1)}
        >
          Anterior
        </button>
        <span>
          Página {page} de {pages}
        </span>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={page >= pages}
          onClick={() => setPage(page + 1)}
        >
          Próxima
        </button>
      </div>
    </section>
  );
}
