import type { PainelOrderDetail } from '@passada/core/contracts/painel-orders';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { OrderChangeForm } from './order-change-form.tsx';

const order = {
  id: 9,
  versao: 4,
  itens: [
    {
      item_id: 31,
      product_id: 3,
      nome: 'Camiseta Sertão',
      cor: 'Azul',
      tamanho: 'M',
      quantidade: 2,
      preco: 50,
    },
  ],
} as PainelOrderDetail;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OrderChangeForm', () => {
  it('shows the server’s quote of what goes back, then sends the list with the reason and the version it read', async () => {
    const calls = mockFetch(({ method, url, body }) => {
      if (url === '/api/painel/orders/9/alteracoes/cotacao/' && method === 'POST') {
        const n = (body as { itens: Array<{ quantidade: number }> }).itens[0]?.quantidade ?? 0;
        return {
          status: 200,
          body: { a_devolver: 50 * n, itens: [], inscricoes: [], cancela_pedido: false, versao: 4 },
        };
      }
      if (url === '/api/painel/orders/9/alteracoes/' && method === 'POST')
        return { status: 200, body: order };
      return undefined;
    });
    renderRoutes([{ path: '/p', element: <OrderChangeForm order={order} className="" /> }], '/p');

    const button = screen.getByRole('button', { name: 'Tirar do pedido e devolver o valor' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(
      screen.getByRole('spinbutton', { name: 'Tirar unidades de Camiseta Sertão (Azul, M)' }),
      {
        target: { value: '1' },
      },
    );
    expect((await screen.findByRole('status')).textContent).toMatch(/^Volta ao cliente: R\$\s50,00\.$/);
    // No reason yet: nothing can be sent.
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'Motivo (o cliente recebe por e-mail)' }), {
      target: { value: 'Peça manchada na separação' },
    });
    await userEvent.click(button);
    await screen.findByText('Pedido alterado: o valor volta ao cliente, que recebe o motivo por e-mail.');
    expect(calls.find((c) => c.url === '/api/painel/orders/9/alteracoes/')?.body).toEqual({
      itens: [{ item_id: 31, quantidade: 1 }],
      motivo: 'Peça manchada na separação',
      versao: 4,
    });
  });
});
