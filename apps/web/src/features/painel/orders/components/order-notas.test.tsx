import type { PainelNota } from '@passada/core/contracts/fiscal';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { OrderNotas } from './order-notas.tsx';

const key = '23261212ABC34501DE35550010000000011100000010';
const base = { inscricao_id: null, autorizada_em: '2026-12-02T15:00:00.000Z', tentativas: 1, motivo: null };
const notas: PainelNota[] = [
  {
    ...base,
    id: 1,
    tipo: 'nfe',
    status: 'autorizada',
    numero: '11',
    chave: key,
    pdf_url: '/api/notas/1/t/danfe.pdf',
    xml_url: '/api/notas/1/t/danfe.xml',
  },
  {
    ...base,
    id: 2,
    tipo: 'nfe_evento',
    status: 'autorizada',
    numero: null,
    chave: key,
    pdf_url: null,
    xml_url: '/api/notas/2/t/evento.xml',
  },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OrderNotas', () => {
  it('shows the NF-e with its DANFE and XML, and the loss event on it with its XML only', async () => {
    mockFetch(({ url }) =>
      url === '/api/painel/orders/9/notas/' ? { status: 200, body: notas } : undefined,
    );
    renderRoutes([{ path: '/p', element: <OrderNotas orderId={9} className="" /> }], '/p');

    const nfe = await screen.findByRole('listitem', { name: 'NF-e nº 11' });
    expect(within(nfe).getByRole('link', { name: 'DANFE (PDF)' }).getAttribute('href')).toBe(
      '/api/notas/1/t/danfe.pdf',
    );
    const event = screen.getByRole('listitem', { name: 'Evento de perda no transporte (112130) da NF-e' });
    expect(within(event).queryByRole('link', { name: 'DANFE (PDF)' })).toBeNull();
    expect(within(event).getByRole('link', { name: 'XML do evento' }).getAttribute('href')).toBe(
      '/api/notas/2/t/evento.xml',
    );
    expect(within(event).getByText(/Chave de acesso: 2326 1212/)).toBeTruthy();
  });
});
