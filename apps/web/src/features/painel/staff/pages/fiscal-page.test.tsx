import type { MonthNota } from '@passada/core/contracts/fiscal';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { MonthNfse } from './fiscal-page.tsx';

const nota: MonthNota = {
  id: 7,
  evento: 3,
  evento_nome: 'Corrida do Mês',
  mes: '2026-10',
  status: 'autorizada',
  motivo: null,
  numero: '41',
  valor: 179.8,
  inscricoes: 2,
  pdf_url: '/api/notas/7/tok/nfse.pdf',
};

const show = () =>
  renderRoutes(
    [
      {
        element: (
          <Outlet
            context={{
              staff: {
                id: 1,
                email: 'x@passada.com.br',
                name: 'X',
                role: 'admin',
                totp_enabled: false,
                active: true,
              },
              precisa_ativar_2fa: false,
            }}
          />
        ),
        children: [{ path: '/painel/fiscal', element: <MonthNfse /> }],
      },
    ],
    '/painel/fiscal',
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MonthNfse (one NFS-e per event per month)', () => {
  it('lists the month’s notas and "Emitir agora" sends the month chosen', async () => {
    let issued: MonthNota[] = [];
    const calls = mockFetch(({ method, url }) => {
      if (method === 'GET' && url.startsWith('/api/painel/fiscal/nfse-mensal/?mes='))
        return { status: 200, body: url.endsWith('2026-10') ? issued : [] };
      if (method === 'POST' && url === '/api/painel/fiscal/nfse-mensal/') {
        issued = [nota];
        return { status: 202, body: issued };
      }
      return undefined;
    });
    show();
    fireEvent.change(screen.getByLabelText('Mês'), { target: { value: '2026-10' } });
    expect(await screen.findByText('Nenhuma NFS-e do mês para 2026-10.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Emitir agora' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/1 nota\(s\) do mês/);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ mes: '2026-10' });
    const table = await screen.findByRole('table', { name: 'NFS-e do mês 2026-10' });
    expect(within(table).getByRole('cell', { name: 'Corrida do Mês' })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'NFS-e 41' }).getAttribute('href')).toBe(nota.pdf_url);
  });

  it('shows why the server refused (the month is not over)', async () => {
    mockFetch(({ method, url }) => {
      if (method === 'GET' && url.startsWith('/api/painel/fiscal/nfse-mensal/'))
        return { status: 200, body: [] };
      if (method === 'POST')
        return {
          status: 409,
          body: {
            detail: 'O mês 11/2026 ainda não terminou: a NFS-e do mês é emitida depois do último dia.',
            code: 'mes_em_aberto',
          },
        };
      return undefined;
    });
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Emitir agora' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/ainda não terminou/);
  });
});
