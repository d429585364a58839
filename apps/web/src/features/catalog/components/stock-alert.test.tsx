import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { StockAlert } from './stock-alert.tsx';

afterEach(cleanup);

describe('StockAlert', () => {
  const show = () =>
    renderRoutes(
      [
        {
          path: '/produto/:id',
          element: <StockAlert productId={4} color={{ id: 2, name: 'Preto' }} size={{ id: 3, name: 'M' }} />,
        },
      ],
      '/produto/4',
    );

  it('asks for the address of a sold-out colour and size, and says what was agreed', async () => {
    const calls = mockFetch(({ url, method }) =>
      url === '/api/products/4/avise-me/' && method === 'POST'
        ? {
            status: 201,
            body: { mensagem: 'Combinado: avisaremos ana@example.com uma vez, quando este tamanho voltar.' },
          }
        : undefined,
    );
    show();
    const form = screen.getByRole('form', { name: 'Avise-me quando Preto, M chegar' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Seu e-mail' }), 'ana@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Avise-me quando chegar' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Combinado: avisaremos ana@example.com uma vez, quando este tamanho voltar.',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      cor: 2,
      tamanho: 3,
      email: 'ana@example.com',
    });
  });

  it("shows the shop's refusal when the size came back meanwhile", async () => {
    mockFetch(({ url }) =>
      url === '/api/products/4/avise-me/'
        ? {
            status: 409,
            body: {
              detail: 'Este tamanho está disponível agora: é só adicionar à sacola.',
              code: 'em_estoque',
            },
          }
        : undefined,
    );
    show();
    await userEvent.type(screen.getByRole('textbox', { name: 'Seu e-mail' }), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Avise-me quando chegar' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Este tamanho está disponível agora: é só adicionar à sacola.',
    );
  });
});
