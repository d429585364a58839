import type { Order } from '@passada/core/contracts/orders';
import { describe, expect, it } from 'vitest';
import { formatOrderDate, lineTotalCents, newestFirst, orderTimeline } from './order-view.ts';

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

  it('dates each reached step: payment by the order, packing and shipping by its moves, delivery by the day', () => {
    const day = (iso: string) => `dia ${iso.slice(0, 10)}`;
    const andamento = [
      { status: 'em separação', em: '2026-11-21T09:00:00Z' },
      { status: 'enviado', em: '2026-11-22T15:30:00Z' },
    ] as Order['andamento'];
    const shipped = orderTimeline(
      { status: 'enviado', order_date: '2026-11-20T13:05:00Z', andamento },
      null,
      day,
    )!;
    expect(shipped.map((s) => [s.label, s.reached, s.current, s.date])).toEqual([
      ['Pago', true, false, 'dia 2026-11-20'],
      ['Em separação', true, false, 'dia 2026-11-21'],
      ['Enviado', true, true, 'dia 2026-11-22'],
      ['Entregue', false, false, null],
    ]);
    // Moved back to packing and shipped again: the latest move dates the step.
    const again = orderTimeline(
      {
        status: 'enviado',
        order_date: '2026-11-20T13:05:00Z',
        andamento: [...andamento!, { status: 'enviado', em: '2026-11-23T10:00:00Z' }],
      },
      null,
      day,
    )!;
    expect(again[2]!.date).toBe('dia 2026-11-23');
    // An answer without moves (an older order) leaves the steps between undated.
    const older = orderTimeline({ status: 'enviado', order_date: '2026-11-20T13:05:00Z' }, null, day)!;
    expect(older.map((s) => s.date)).toEqual(['dia 2026-11-20', null, null, null]);
    // Delivery is the after-sale's day (aaaa-mm-dd), shown as that day whatever the time zone.
    const delivered = orderTimeline(
      { status: 'entregue', order_date: '2026-11-20T13:05:00Z', andamento },
      '2026-11-25',
      day,
    )!;
    expect(delivered.at(-1)).toEqual({ label: 'Entregue', reached: true, current: true, date: '25/11/2026' });
    expect(orderTimeline({ status: 'cancelado', order_date: '2026-11-20T13:05:00Z' }, null, day)).toBeNull();
    expect(orderTimeline({ status: 'aguardando pagamento', order_date: '' }, null, day)).toBeNull();
  });

  it("adds a line's total in cents, without a float's leftovers", () => {
    expect(lineTotalCents(59.9, 3)).toBe(17970);
    expect(lineTotalCents(0.1, 2)).toBe(20);
  });
});
