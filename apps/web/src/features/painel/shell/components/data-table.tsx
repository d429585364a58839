import type { ReactNode } from 'react';

export interface Column<Row> {
  /** The column's name, read out with every cell of the column. */
  header: string;
  /** The name stays for screen readers only (a column of row actions). */
  hideHeader?: boolean;
  /** The cell names its row (code, name, number): a row header instead of a plain cell. */
  rowHeader?: boolean;
  className?: string;
  cell(row: Row): ReactNode;
}

interface DataTableProps<Row> {
  /** What the table lists, as its caption (read by screen readers, not shown). */
  label: string;
  columns: Array<Column<Row>>;
  /** Undefined while loading: the table then shows its headers only. */
  rows: Row[] | undefined;
  rowKey(row: Row): string | number;
  /** Shown in the table when the list came back empty. */
  empty: string;
  /** Width and margins of the table; full width by default. */
  className?: string;
}

const cellClass = 'py-2 pr-4 align-top';

/**
 * The back office's one list table: a caption, column headers with their scope, the empty text, and
 * row actions as named buttons or links that the page passes in its cells.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  className = 'w-full',
}: DataTableProps<Row>) {
  return (
    <table className={`${className} text-left text-sm`}>
      <caption className="sr-only">{label}</caption>
      <thead>
        <tr className="border-b border-stone-300">
          {columns.map((column) => (
            <th key={column.header} scope="col" className={cellClass}>
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows?.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className={`${cellClass} text-stone-600 dark:text-stone-400`}>
              {empty}
            </td>
          </tr>
        ) : null}
        {rows?.map((row) => (
          <tr key={rowKey(row)} className="border-b border-stone-200 dark:border-stone-800">
            {columns.map((column) => {
              const className = column.className ? `${cellClass} ${column.className}` : cellClass;
              return column.rowHeader ? (
                <th key={column.header} scope="row" className={`${className} font-normal`}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.header} className={className}>
                  {column.cell(row)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
