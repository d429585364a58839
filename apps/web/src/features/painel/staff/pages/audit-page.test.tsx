import type { AuditEntry } from '@passada/core/contracts/painel';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import AuditPage from './audit-page.tsx';

const TOTAL = 60;

const entry = (id: number): AuditEntry => ({
  id,
  staff_email: `operador${id}@passada.com.br`,
  action: 'status',
  entity: 'pedido',
  entity_id: String(id),
  alvo: `Pedido nº ${id}`,
  before: { status: 'pago' },
  after: { status: 'em separação' },
  alteracoes: [{ campo: 'Situação', antes: 'pago', depois: 'em separação' }],
  at: '2026-11-20T13:00:00.000Z',
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AuditPage pager', () => {
  it('asks the server for the next page and shows it', async () => {
    const calls = mockFetch(({ method, url }) => {
      if (method !== 'GET' || !url.startsWith('/api/painel/audit/?')) return undefined;
      const page = Number(new URLSearchParams(url.split('?')[1]).get('page'));
      const ids =
        page === 1 ? Array.from({ length: 50 }, (_, i) => TOTAL - i) : [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
      return { status: 200, body: { results: ids.map(entry), count: TOTAL } };
    });
    renderRoutes([{ path: '/painel/auditoria', element: <AuditPage /> }], '/painel/auditoria');
    const pager = () => within(screen.getByRole('navigation', { name: 'Páginas do registro' }));

    await screen.findByText('operador60@passada.com.br');
    expect(pager().getByText('Página 1 de 2')).toBeTruthy();
    fireEvent.click(pager().getByRole('button', { name: 'Próxima' }));
    await screen.findByText('operador10@passada.com.br');
    expect(screen.queryByText('operador60@passada.com.br')).toBeNull();
    expect(pager().getByText('Página 2 de 2')).toBeTruthy();
    expect((pager().getByRole('button', { name: 'Próxima' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.map((c) => c.url)).toContain('/api/painel/audit/?page=2');
  });
});
