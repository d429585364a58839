import type { StaffRole } from '@passada/core/contracts/painel';
import { cleanup, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import type { Me } from '../../shell/api/auth.ts';
import PainelHomePage from '../../shell/pages/home-page.tsx';
import { AwaitingShipmentCard } from './dashboard-section.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = (role: StaffRole): Me => ({
  staff: {
    id: 1,
    email: 'ana@passada.com.br',
    name: 'Ana Lima',
    role,
    totp_enabled: true,
    active: true,
    eventos: [],
  },
  precisa_ativar_2fa: false,
});

function renderHome(role: StaffRole) {
  const calls = mockFetch(({ url }) =>
    url === '/api/painel/orders/aguardando-envio/'
      ? { status: 200, body: { aguardando_envio: 7 } }
      : undefined,
  );
  renderRoutes(
    [
      {
        path: '/painel',
        element: <Outlet context={me(role)} />,
        children: [
          {
            index: true,
            element: (
              <PainelHomePage
                StockCards={() => <p>Cartões de estoque</p>}
                DashboardSection={() => <p>Resumo de vendas</p>}
                AwaitingShipmentCard={AwaitingShipmentCard}
              />
            ),
          },
        ],
      },
    ],
    '/painel',
  );
  return calls;
}

describe('the back office home page by role', () => {
  it('shows whoever ships (estoque) how many orders wait for shipping, without the sales', async () => {
    renderHome('estoque');
    const card = await screen.findByRole('region', { name: 'Pedidos a enviar' });
    expect(card.textContent).toContain('Aguardando envio');
    expect(card.textContent).toContain('7');
    expect(screen.getByRole('link', { name: 'Ver pedidos' }).getAttribute('href')).toBe(
      '/painel/pedidos?status=pago',
    );
    expect(screen.getByText('Cartões de estoque')).toBeTruthy();
    expect(screen.queryByText('Resumo de vendas')).toBeNull();
  });

  it('leaves the count to the sales summary for a role that reads it', async () => {
    const calls = renderHome('gerente');
    await screen.findByText('Resumo de vendas');
    expect(screen.queryByRole('region', { name: 'Pedidos a enviar' })).toBeNull();
    expect(calls.some((c) => c.url.includes('aguardando-envio'))).toBe(false);
  });
});
