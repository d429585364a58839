import type { PainelOrderSummary } from '@passada/core/contracts/painel-orders';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import OrdersPage from './orders-page.tsx';

const PAGE_SIZE = 20;
const TOTAL = 45;

const order = (id: number): PainelOrderSummary => ({
  id,
  status: 'pago',
  data: '2026-11-20T13:00:00.000Z',
  cliente: `Cliente ${id}`,
  destinatario: null,
  email: `cliente${id}@example.com`,
  metodo_pagamento: 'pix',
  total: 100,
  itens: 1,
});

/** The back office's order list as the server pages it: newest first, PAGE_SIZE per page. */
function ordersApi() {
  return mockFetch(({ method, url }) => {
    if (method !== 'GET' || !url.startsWith('/api/painel/orders/?')) return undefined;
    const page = Number(new URLSearchParams(url.split('?')[1]).get('pagina') ?? '1');
    const first = TOTAL - (page - 1) * PAGE_SIZE;
    const ids = Array.from({ length: Math.min(PAGE_SIZE, first) }, (_, i) => first - i);
    return { status: 200, body: { results: ids.map(order), count: TOTAL, page_size: PAGE_SIZE } };
  });
}

const pager = () => within(screen.getByRole('navigation', { name: 'Páginas' }));
const firstOrderLink = async (id: number) =>
  screen.findByRole('link', { name: String(id) }, { timeout: 2_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OrdersPage pager', () => {
  it('pages forward and back through the server’s pages, keeping the page in the address', async () => {
    const calls = ordersApi();
    const router = renderRoutes([{ path: '/painel/pedidos', element: <OrdersPage /> }], '/painel/pedidos');

    await firstOrderLink(45);
    expect(pager().getByText('Página 1 de 3 (45 pedidos)')).toBeTruthy();
    expect((pager().getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(pager().getByRole('button', { name: 'Próxima' }));
    await firstOrderLink(25);
    expect(screen.queryByRole('link', { name: '45' })).toBeNull();
    expect(pager().getByText('Página 2 de 3 (45 pedidos)')).toBeTruthy();
    expect(router.state.location.search).toBe('?pagina=2');
    expect(calls.some((c) => c.url.includes('pagina=2'))).toBe(true);

    fireEvent.click(pager().getByRole('button', { name: 'Próxima' }));
    await firstOrderLink(5);
    expect(screen.getAllByRole('link', { name: /^\d+$/ })).toHaveLength(5);
    expect((pager().getByRole('button', { name: 'Próxima' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(pager().getByRole('button', { name: 'Anterior' }));
    await firstOrderLink(25);
    await waitFor(() => expect(pager().getByText('Página 2 de 3 (45 pedidos)')).toBeTruthy());
  });

  it('goes back to the first page when a filter changes', async () => {
    const calls = ordersApi();
    const router = renderRoutes(
      [{ path: '/painel/pedidos', element: <OrdersPage /> }],
      '/painel/pedidos?pagina=3',
    );
    await firstOrderLink(5);
    fireEvent.change(screen.getByLabelText('Pagamento'), { target: { value: 'pix' } });
    await firstOrderLink(45);
    expect(router.state.location.search).toBe('?metodo=pix');
    expect(calls.at(-1)?.url).toBe('/api/painel/orders/?metodo=pix&pagina=1');
  });
});
