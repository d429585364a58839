import type { Order } from '@passada/core/contracts/orders';
import { describe, expect, it } from 'vitest';
import { formatOrderDate, interestCents, newestFirst } from './order-view.ts';

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

  it('interest is what was charged beyond products and shipping, never negative', () => {
    expect(interestCents({ total: 207.96, subtotal: 180.0, frete: 20 })).toBe(796);
    expect(interestCents({ total: 138.8, subtotal: 119.9, frete: 18.9 })).toBe(0);
    expect(interestCents({ total: 100, subtotal: 100, frete: 5 })).toBe(0);
    // A coupon's discount is not negative interest: R$ 180 − R$ 18 + R$ 20 shipping, plus R$ 7,96.
    expect(interestCents({ total: 189.96, subtotal: 180.0, frete: 20, desconto: 18 })).toBe(796);
    expect(interestCents({ total: 182, subtotal: 180.0, frete: 20, desconto: 18 })).toBe(0);
  });

  it('shows an unreadable date as the spec does', () => {
    expect(formatOrderDate('ontem')).toBe('Data inválida.');
    expect(formatOrderDate('2026-11-20T13:05:00Z')).toMatch(/^20\/11\/2026/);
  });
});
