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

  it('swaps units to another colour and size from the product’s stock, a sold-out one not offered, with the quote first', async () => {
    const calls = mockFetch(({ method, url }) => {
      if (url === '/api/products/3/')
        return {
          status: 200,
          body: {
            id: 3,
            stock: [
              { color: { id: 1, name: 'Azul', hex: '#00f' }, size: { id: 2, name: 'M' }, quantity: 5 },
              { color: { id: 4, name: 'Verde', hex: '#0f0' }, size: { id: 5, name: 'P' }, quantity: 1 },
              { color: { id: 6, name: 'Branco', hex: '#fff' }, size: { id: 7, name: 'GG' }, quantity: 0 },
            ],
          },
        };
      if (url === '/api/painel/orders/9/alteracoes/cotacao/' && method === 'POST')
        return {
          status: 200,
          body: {
            a_devolver: 0,
            itens: [],
            inscricoes: [],
            trocas: [{ item_id: 31, quantidade: 1, cor: 'Verde', tamanho: 'P' }],
            cancela_pedido: false,
            versao: 4,
          },
        };
      if (url === '/api/painel/orders/9/alteracoes/' && method === 'POST')
        return { status: 200, body: order };
      return undefined;
    });
    // An operator without the refund permission: swaps only, no unit can be taken off.
    renderRoutes(
      [{ path: '/p', element: <OrderChangeForm order={order} canRefund={false} className="" /> }],
      '/p',
    );
    expect(
      screen.queryByRole('spinbutton', { name: 'Tirar unidades de Camiseta Sertão (Azul, M)' }),
    ).toBeNull();

    const to = screen.getByRole('combobox', { name: 'Trocar Camiseta Sertão (Azul, M) por' });
    const soldOut = await screen.findByRole('option', { name: 'Branco, GG (esgotado)' });
    expect((soldOut as HTMLOptionElement).disabled).toBe(true);
    expect(screen.queryByRole('option', { name: 'Azul, M' })).toBeNull();
    await userEvent.selectOptions(to, 'Verde, P');
    expect(
      (
        screen.getByRole('spinbutton', {
          name: 'Unidades a trocar de Camiseta Sertão (Azul, M)',
        }) as HTMLInputElement
      ).value,
    ).toBe('1');
    expect((await screen.findByRole('status')).textContent).toMatch(/Troca: 1 para Verde, P\./);
    fireEvent.change(screen.getByRole('textbox', { name: 'Motivo (o cliente recebe por e-mail)' }), {
      target: { value: 'Cliente pediu por telefone' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Trocar cor ou tamanho' }));
    await screen.findByText('Pedido alterado: o valor volta ao cliente, que recebe o motivo por e-mail.');
    expect(calls.find((c) => c.url === '/api/painel/orders/9/alteracoes/')?.body).toEqual({
      itens: [],
      trocas: [{ item_id: 31, quantidade: 1, cor_id: 4, tamanho_id: 5 }],
      motivo: 'Cliente pediu por telefone',
      versao: 4,
    });
  });
});
