import type { PainelOpening } from '@passada/core/contracts/opening';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import OpeningPage from './opening-page.tsx';

const saved: PainelOpening = {
  versao: 1,
  modo: 'sorteio',
  abre_em: '2026-12-01T12:00:00.000Z',
  pre_fila_minutos: 0,
  admitidos_por_minuto: null,
  minutos_da_vez: 15,
  inscricoes_por_cpf: 1,
  inscricoes_por_comprador: 4,
  ao_vivo: {
    chegadas: 0,
    na_fila: 0,
    admitidos: 0,
    pagando: 0,
    pagas: 0,
    vagas_restantes: 500,
    admitidos_por_minuto: 34,
  },
  sorteio: {
    inscricoes_de: '2026-12-01T12:00:00.000Z',
    inscricoes_ate: '2026-12-08T21:00:00.000Z',
    vagas: 300,
    horas_para_pagar: 48,
    compromisso: null,
    compromisso_em: null,
    sorteado_em: null,
    sorteios: 0,
    inscritos: 0,
    aguardando_pagamento: 0,
    pagos: 0,
    expirados: 0,
  },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const change = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('OpeningPage', () => {
  it('sets a lottery in the store’s time and then offers its commitment and draw', async () => {
    let current: PainelOpening | null = null;
    const calls = mockFetch(({ method, url }) => {
      if (url !== '/api/painel/events/7/abertura/') return undefined;
      if (method === 'PUT') current = saved;
      return current ? { status: 200, body: current } : undefined;
    });
    renderRoutes(
      [{ path: '/painel/eventos/:id/abertura', element: <OpeningPage /> }],
      '/painel/eventos/7/abertura',
    );
    await screen.findByLabelText('Modo de abertura');
    expect(screen.queryByRole('region', { name: 'Ao vivo' })).toBeNull();

    change('Modo de abertura', 'sorteio');
    change('Inscrições no sorteio a partir de', '2026-12-01T09:00');
    change('Inscrições no sorteio até', '2026-12-08T18:00');
    change('Vagas sorteadas', '300');
    change('Prazo para o sorteado pagar (horas)', '48');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar abertura' }));

    await screen.findByText('Abertura salva.');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({
      modo: 'sorteio',
      abre_em: '2026-12-01T09:00:00-03:00',
      sorteio: {
        inscricoes_de: '2026-12-01T09:00:00-03:00',
        inscricoes_ate: '2026-12-08T18:00:00-03:00',
        vagas: 300,
        horas_para_pagar: 48,
      },
    });
    expect(put.body).not.toHaveProperty('versao');
    const live = within(screen.getByRole('region', { name: 'Ao vivo' }));
    expect(live.getByText('Vagas restantes').nextSibling?.textContent).toBe('500');
    const lottery = within(screen.getByRole('region', { name: 'Sorteio' }));
    expect(lottery.getByRole('button', { name: 'Publicar compromisso' })).toBeTruthy();
    expect(lottery.getByRole('button', { name: 'Sortear' })).toBeTruthy();
    // The form shows what was saved, read in the store's time.
    expect((screen.getByLabelText('Inscrições no sorteio até') as HTMLInputElement).value).toBe(
      '2026-12-08T18:00',
    );
  });

  it('shows the server’s message beside the field it refuses', async () => {
    mockFetch(({ method, url }) => {
      if (url !== '/api/painel/events/7/abertura/') return undefined;
      if (method === 'PUT')
        return {
          status: 400,
          body: {
            detail: 'O fim das inscrições no sorteio deve ser depois do início.',
            code: 'validation_error',
            errors: {
              'sorteio.inscricoes_ate': 'O fim das inscrições no sorteio deve ser depois do início.',
            },
          },
        };
      return undefined;
    });
    renderRoutes(
      [{ path: '/painel/eventos/:id/abertura', element: <OpeningPage /> }],
      '/painel/eventos/7/abertura',
    );
    await screen.findByLabelText('Modo de abertura');
    change('Modo de abertura', 'sorteio');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar abertura' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('O fim das inscrições no sorteio deve ser depois do início.')).toHaveLength(2);
  });
});
