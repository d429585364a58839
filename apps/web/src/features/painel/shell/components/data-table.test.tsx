import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Column, DataTable } from './data-table.tsx';

interface Coupon {
  id: number;
  code: string;
  uses: number;
}

const onEdit = vi.fn();
const columns: Array<Column<Coupon>> = [
  { header: 'Código', rowHeader: true, cell: (c) => c.code },
  { header: 'Usos', cell: (c) => c.uses },
  {
    header: 'Ações',
    hideHeader: true,
    cell: (c) => (
      <button type="button" aria-label={`Editar ${c.code}`} onClick={() => onEdit(c.id)}>
        Editar
      </button>
    ),
  },
];

const show = (rows: Coupon[] | undefined) =>
  render(
    <DataTable
      label="Cupons"
      columns={columns}
      rows={rows}
      rowKey={(c) => c.id}
      empty="Nenhum cupom ainda."
    />,
  );

afterEach(() => {
  cleanup();
  onEdit.mockReset();
});

describe('DataTable', () => {
  it('is named by its caption and names each cell by its column and row', () => {
    show([
      { id: 1, code: 'BEMVINDO10', uses: 4 },
      { id: 2, code: 'CORRIDA20', uses: 0 },
    ]);
    const table = screen.getByRole('table', { name: 'Cupons' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Código', 'Usos', 'Ações']);
    expect(headers.every((h) => h.getAttribute('scope') === 'col')).toBe(true);
    const row = within(table).getByRole('row', { name: /CORRIDA20/ });
    expect(within(row).getByRole('rowheader').textContent).toBe('CORRIDA20');
    expect(within(row).getByRole('rowheader').getAttribute('scope')).toBe('row');
    expect(within(row).getByRole('cell', { name: '0' })).toBeTruthy();
    expect(screen.queryByText('Nenhum cupom ainda.')).toBeNull();
  });

  it('gives every row action its own name', () => {
    show([
      { id: 1, code: 'BEMVINDO10', uses: 4 },
      { id: 2, code: 'CORRIDA20', uses: 0 },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Editar CORRIDA20' }));
    expect(onEdit).toHaveBeenCalledWith(2);
  });

  it('says so when the list is empty, and shows only the headers while it loads', () => {
    show([]);
    expect(screen.getByRole('cell', { name: 'Nenhum cupom ainda.' }).getAttribute('colspan')).toBe('3');
    cleanup();
    show(undefined);
    expect(screen.getAllByRole('row')).toHaveLength(1);
    expect(screen.queryByText('Nenhum cupom ainda.')).toBeNull();
  });
});
