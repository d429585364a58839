import type { Order } from '@passada/core/contracts/orders';
import { describe, expect, it } from 'vitest';
import { formatOrderDate, newestFirst } from './order-view.ts';

const order = (id: number, order_date: string) => ({ id, order_date }) as Order;

describe('order history helpers', () => {
  it('lists the newest order first, the higher id first on equal dates', () => {
    const sorted = newestFirst([
      order(1, '2026-11-01T10:00:00Z'),
      order(3, '2026-11-20T10:00:00Z'),
      order(2, '2026-11-20T10:00:00Z'),
      order(4, '2026-10-05T10:00:00Z'),
    ]);
    expect(sorted.map((o) => o.id)).toEqual([3, 2, 1, 4]);
  });

  it('shows an unreadable date as the spec does', () => {
    expect(formatOrderDate('ontem')).toBe('Data inválida.');
    expect(formatOrderDate('2026-11-20T13:05:00Z')).toMatch(/^20\/11\/2026/);
  });
});
