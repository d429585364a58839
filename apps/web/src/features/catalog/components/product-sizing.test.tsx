import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { ProductSizing } from './product-sizing.tsx';

afterEach(cleanup);

const show = () =>
  renderRoutes([{ path: '/produto/:id', element: <ProductSizing productId={4} /> }], '/produto/4');

describe('ProductSizing', () => {
  it('says how it fits with its numbers, and folds the size guide in a table', async () => {
    mockFetch(({ url }) =>
      url === '/api/products/4/tamanhos/'
        ? {
            status: 200,
            body: {
              guia: {
                colunas: ['Tórax', 'Comprimento'],
                linhas: [
                  { tamanho: 'P', valores: [50, 68.5] },
                  { tamanho: 'M', valores: [52, null] },
                ],
              },
              caimento: {
                veste: 'pequeno',
                texto:
                  'Costuma vestir pequeno: considere um tamanho acima. De 40 peças entregues, 6 foram trocadas por um tamanho maior e 2 por um menor.',
                entregues: 40,
                trocas_para_maior: 6,
                trocas_para_menor: 2,
              },
            },
          }
        : undefined,
    );
    show();
    expect((await screen.findByText(/Costuma vestir pequeno/)).textContent).toContain(
      'De 40 peças entregues, 6 foram trocadas por um tamanho maior e 2 por um menor.',
    );
    const table = screen.getByRole('table', { name: 'Medidas da peça, em centímetros' });
    const m = within(table).getByRole('row', { name: /^M/ });
    expect(
      within(m)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['52', '—']);
    expect(within(table).getByRole('row', { name: /^P/ }).textContent).toContain('68,5');
  });

  it('shows nothing when there is neither a guide nor enough exchanges', async () => {
    const calls = mockFetch(({ url }) =>
      url === '/api/products/4/tamanhos/' ? { status: 200, body: { guia: null, caimento: null } } : undefined,
    );
    show();
    await vi.waitFor(() => expect(calls.some((c) => c.url === '/api/products/4/tamanhos/')).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByText(/Caimento/)).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('Guia de medidas')).toBeNull();
  });
});
