import type { StaffRole } from '@passada/core/contracts/painel';
import { cleanup, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import type { Me } from '../../shell/api/auth.ts';
import ParticipantsPage from './participants-page.tsx';

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

function renderAs(role: StaffRole) {
  mockFetch(({ url }) =>
    url.startsWith('/api/painel/events/4/participants/')
      ? {
          status: 200,
          body: {
            results: [],
            contagem: [
              { id: 9, nome: '5 km', dia: '2026-12-20', inscritos: 3, retirados: 0, vagas_restantes: 7 },
            ],
          },
        }
      : undefined,
  );
  renderRoutes(
    [
      {
        path: '/painel/eventos/:id',
        element: <Outlet context={me(role)} />,
        children: [{ path: 'participantes', element: <ParticipantsPage /> }],
      },
    ],
    '/painel/eventos/4/participantes',
  );
}

describe('the participants page by role', () => {
  it('shows the bib numbering to who runs events', async () => {
    renderAs('gerente');
    await screen.findByText('5 km', { selector: 'th' });
    expect(screen.getByRole('button', { name: 'Numerar participantes' })).toBeTruthy();
  });

  it('hides it from a role that cannot use it (estoque reads the list to ship kits)', async () => {
    renderAs('estoque');
    await screen.findByText('5 km', { selector: 'th' });
    expect(screen.queryByRole('button', { name: 'Numerar participantes' })).toBeNull();
  });
});
