import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { ProductReviews } from './product-reviews.tsx';

afterEach(cleanup);

const review = (id: number, estrelas: number, autor: string) => ({
  id,
  autor,
  estrelas,
  texto: `Comentário ${id}`,
  caimento: 'no_tamanho',
  data: '2026-11-30',
});

describe('ProductReviews', () => {
  it('shows the average, the count, how it fitted and each review, a page at a time', async () => {
    const calls = mockFetch(({ url }) =>
      url.startsWith('/api/products/4/avaliacoes/')
        ? {
            status: 200,
            body: {
              media: 4.5,
              total: 12,
              caimento: { pequeno: 2, no_tamanho: 9, grande: 1 },
              avaliacoes: url.endsWith('?page=2') ? [review(2, 4, 'Bia')] : [review(1, 5, 'Ana')],
              page: url.endsWith('?page=2') ? 2 : 1,
              pages: 2,
            },
          }
        : undefined,
    );
    renderRoutes([{ path: '/produto/:id', element: <ProductReviews productId={4} /> }], '/produto/4');
    const section = await screen.findByRole('region', { name: 'Avaliações' });
    await within(section).findByText('Ana');
    expect(section.textContent).toContain('4,5 de 5, 12 avaliações de quem comprou.');
    expect(section.textContent).toContain('Tamanho: 2 ficou pequeno, 9 no tamanho, 1 ficou grande.');
    expect(within(section).getByRole('img', { name: '5 de 5 estrelas' })).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: 'Avaliações anteriores' }));
    await within(section).findByText('Bia');
    expect(calls.some((c) => c.url === '/api/products/4/avaliacoes/?page=2')).toBe(true);
  });

  it('says when nobody reviewed it yet', async () => {
    mockFetch(() => ({
      status: 200,
      body: {
        media: null,
        total: 0,
        caimento: { pequeno: 0, no_tamanho: 0, grande: 0 },
        avaliacoes: [],
        page: 1,
        pages: 1,
      },
    }));
    renderRoutes([{ path: '/produto/:id', element: <ProductReviews productId={4} /> }], '/produto/4');
    expect(await screen.findByText('Ainda não há avaliações de quem comprou esta peça.')).toBeTruthy();
  });
});
