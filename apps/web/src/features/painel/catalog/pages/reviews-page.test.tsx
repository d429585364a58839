import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import ReviewsPage from './reviews-page.tsx';

afterEach(cleanup);

const pending = {
  id: 7,
  produto_id: 3,
  produto: 'Camiseta Passada',
  autor: 'Ana',
  estrelas: 4,
  texto: 'Tecido leve.',
  caimento: 'pequeno',
  estado: 'pendente',
  motivo: null,
  criada_em: '2026-12-01T12:00:00.000Z',
};

describe('ReviewsPage', () => {
  it('publishes a review, or hides one with its reason', async () => {
    const calls = mockFetch(({ url, method }) => {
      if (url === '/api/painel/avaliacoes/?estado=pendente')
        return { status: 200, body: [pending, { ...pending, id: 8, autor: 'Bia' }] };
      if (method === 'POST')
        return { status: 200, body: { estado: url.includes('/7/') ? 'publicada' : 'oculta' } };
      return undefined;
    });
    renderRoutes([{ path: '/painel/avaliacoes', element: <ReviewsPage /> }], '/painel/avaliacoes');
    const ana = await screen.findByRole('article', { name: 'avaliação de Ana sobre Camiseta Passada' });
    expect(ana.textContent).toContain('4 de 5 estrelas');
    expect(ana.textContent).toContain('Ficou pequeno');
    await userEvent.click(within(ana).getByRole('button', { name: 'Publicar' }));
    const bia = screen.getByRole('article', { name: 'avaliação de Bia sobre Camiseta Passada' });
    await userEvent.click(within(bia).getByRole('button', { name: 'Ocultar' }));
    const hide = within(bia).getByRole('form', { name: 'Ocultar a avaliação de Bia sobre Camiseta Passada' });
    await userEvent.type(within(hide).getByRole('textbox', { name: 'Motivo' }), 'Fala de outro produto.');
    await userEvent.click(within(hide).getByRole('button', { name: 'Ocultar com este motivo' }));
    await expect
      .poll(() => calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body]))
      .toEqual([
        ['/api/painel/avaliacoes/7/moderacao/', { acao: 'publicar' }],
        ['/api/painel/avaliacoes/8/moderacao/', { acao: 'ocultar', motivo: 'Fala de outro produto.' }],
      ]);
  });
});
