import type { Event } from '@passada/core/contracts/events';
import { describe, expect, it } from 'vitest';
import { selectedIds, selectionTotalCents, toggleCategory } from './selection.ts';

const event = {
  dias_evento: [
    {
      data: '2026-12-05',
      categorias: [
        { id: 1, nome_categoria: '5 km', preco_inscricao: 79.9, quantidade_disponivel: 10 },
        { id: 2, nome_categoria: '10 km', preco_inscricao: 99.9, quantidade_disponivel: 10 },
      ],
    },
    {
      data: '2026-12-06',
      categorias: [{ id: 3, nome_categoria: '21 km', preco_inscricao: 159.9, quantidade_disponivel: 10 }],
    },
  ],
} as Event;

describe('category selection', () => {
  it('keeps one category per day: a second pick on the same day replaces the first', () => {
    let s = toggleCategory({}, '2026-12-05', 1);
    s = toggleCategory(s, '2026-12-06', 3);
    s = toggleCategory(s, '2026-12-05', 2);
    expect(s).toEqual({ '2026-12-05': 2, '2026-12-06': 3 });
    expect(selectedIds(event, s)).toEqual([2, 3]);
    expect(selectionTotalCents(event, s)).toBe(9990 + 15990);
  });

  it('unpicks the picked category when clicked again', () => {
    const s = toggleCategory(toggleCategory({}, '2026-12-05', 1), '2026-12-05', 1);
    expect(s).toEqual({});
    expect(selectionTotalCents(event, s)).toBe(0);
  });
});
