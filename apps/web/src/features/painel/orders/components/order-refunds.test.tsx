import { type OrderRefunds, OrderRefundsSchema } from '@passada/core/contracts/returns';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { OrderRefundsSection } from './order-refunds.tsx';

const before: OrderRefunds = OrderRefundsSchema.parse({
  metodo: 'pix',
  pago: 150,
  reembolsado: 50,
  restante: 100,
  reembolsos: [
    {
      id: 1,
      valor: 50,
      status: 'DEVOLVIDO',
      motivo: 'Desistência da compra pelo cliente.',
      por: null,
      em: '2026-11-24T13:00:00.000Z',
      id_provedor: 'ret3',
    },
  ],
});

const after: OrderRefunds = {
  ...before,
  reembolsado: 75.5,
  restante: 74.5,
  reembolsos: [
    ...before.reembolsos,
    {
      id: 2,
      valor: 25.5,
      status: 'PENDENTE',
      motivo: 'Reembolso parcial do pedido nº 9: Brinde que faltou',
      por: 'Ana da Loja',
      em: '2026-11-25T13:00:00.000Z',
      id_provedor: 'ord9n2',
    },
  ],
};

const show = (role: 'admin' | 'operador') =>
  renderRoutes(
    [
      {
        element: (
          <Outlet
            context={{
              staff: { id: 1, email: 'x@passada.com.br', name: 'X', role, totp_enabled: false, active: true },
              precisa_ativar_2fa: false,
            }}
          />
        ),
        children: [
          { path: '/painel/pedidos/:id', element: <OrderRefundsSection orderId={9} className="" /> },
        ],
      },
    ],
    '/painel/pedidos/9',
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OrderRefundsSection', () => {
  it('shows paid, refunded and left with every refund, and refunds a part with the count it saw', async () => {
    let current = before;
    const calls = mockFetch(({ method, url }) => {
      if (url !== '/api/painel/orders/9/reembolsos/') return undefined;
      if (method === 'POST') current = after;
      return { status: 200, body: current };
    });
    vi.stubGlobal('confirm', () => true);
    show('admin');

    expect((await screen.findByTestId('refunds-left')).textContent?.replace(/\s/g, ' ')).toBe('R$ 100,00');
    expect(screen.getByTestId('refunds-paid').textContent?.replace(/\s/g, ' ')).toBe('R$ 150,00');
    const table = screen.getByRole('table', { name: 'Reembolsos do pedido' });
    expect(within(table).getByRole('cell', { name: 'ret3' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'Regra da loja (cliente)' })).toBeTruthy();

    // Above what is left: told at once, nothing sent.
    fireEvent.change(screen.getByRole('textbox', { name: 'Valor a reembolsar (R$)' }), {
      target: { value: '100,01' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Motivo do reembolso' }), {
      target: { value: 'Brinde que faltou' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reembolsar parte' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/passa do que resta/);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByRole('textbox', { name: 'Valor a reembolsar (R$)' }), {
      target: { value: '25,50' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reembolsar parte' }));
    expect((await screen.findByRole('status', {}, { timeout: 2_000 })).textContent).toMatch(
      /Reembolso de R\$\s25,50/,
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      valor: 25.5,
      motivo: 'Brinde que faltou',
      reembolsos_vistos: 1,
    });
    expect(await screen.findByRole('cell', { name: 'Ana da Loja' })).toBeTruthy();
    expect(screen.getByTestId('refunds-left').textContent?.replace(/\s/g, ' ')).toBe('R$ 74,50');
  });

  it('sends what the carrier reported of the parcel, for the nota the refund gets', async () => {
    const calls = mockFetch(({ method, url }) => {
      if (url !== '/api/painel/orders/9/reembolsos/') return undefined;
      return { status: 200, body: method === 'POST' ? after : before };
    });
    vi.stubGlobal('confirm', () => true);
    show('admin');
    const carrier = await screen.findByRole('combobox', { name: 'O pacote voltou pela transportadora?' });
    expect((carrier as HTMLSelectElement).value).toBe('');
    fireEvent.change(screen.getByRole('textbox', { name: 'Valor a reembolsar (R$)' }), {
      target: { value: '50' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Motivo do reembolso' }), {
      target: { value: 'Recusado na entrega' },
    });
    fireEvent.change(carrier, { target: { value: 'recusa_total' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reembolsar parte' }));
    await screen.findByText(/Reembolso de R\$\s50,00/);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      valor: 50,
      motivo: 'Recusado na entrega',
      reembolsos_vistos: 1,
      retorno_transportadora: 'recusa_total',
    });
  });

  it('shows the figures but no refund form to a role that may not return payments', async () => {
    mockFetch(({ url }) =>
      url === '/api/painel/orders/9/reembolsos/' ? { status: 200, body: before } : undefined,
    );
    show('operador');
    expect((await screen.findByTestId('refunds-refunded')).textContent?.replace(/\s/g, ' ')).toBe('R$ 50,00');
    expect(screen.queryByRole('button', { name: 'Reembolsar parte' })).toBeNull();
  });
});
