import { secondaryButtonClass } from '../../../../components/form-field.tsx';

/** "Anterior · Página X de Y · Próxima" under a back-office list; `onPage` gets the page asked for. */
export function Pager({
  page,
  pages,
  label,
  extra,
  onPage,
}: {
  page: number;
  pages: number;
  /** What the navigation pages through, for screen readers. */
  label: string;
  /** Shown after "Página X de Y", e.g. "(12 pedidos)". */
  extra?: string;
  onPage(page: number): void;
}) {
  return (
    <nav className="mt-4 flex items-center gap-3" aria-label={label}>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Anterior
      </button>
      <span>
        Página {page} de {pages}
        {extra ? ` ${extra}` : null}
      </span>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Próxima
      </button>
    </nav>
  );
}
