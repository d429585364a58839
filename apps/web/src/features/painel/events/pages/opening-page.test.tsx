import type { PainelLotteryEntry } from '@passada/core/contracts/lottery';
import type { PainelOpening } from '@passada/core/contracts/opening';
import type { PainelTeamQuota } from '@passada/core/contracts/teams';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
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
    vagas_restantes: 497,
    vagas_reservadas: 3,
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
    // The public's figure, and apart what is held for someone (a waitlist's offer, a team's quota).
    expect(live.getByText('Vagas restantes').nextSibling?.textContent).toBe('497');
    expect(
      live.getByText('Reservadas (ofertas da lista de espera e cotas de equipes)').nextSibling?.textContent,
    ).toBe('3');
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

  it('lists the lottery’s people with their state, searched and filtered on the server, and downloads them', async () => {
    const drawn: PainelOpening = {
      ...saved,
      sorteio: { ...saved.sorteio!, compromisso: 'ab'.repeat(32), sorteios: 1, inscritos: 60 },
    };
    const entry = (id: number, estado: PainelLotteryEntry['estado']): PainelLotteryEntry => ({
      id,
      nome_completo: `Corredora ${id}`,
      cpf_mascarado: '***.456.789-**',
      email: `c${id}@example.com`,
      categoria: 3,
      categoria_nome: '10 km',
      estado,
      posicao: id,
      sorteio: estado === 'nao_sorteado' ? null : 1,
      pagar_ate: estado === 'sorteado' ? '2026-12-10T21:00:00.000Z' : null,
      inscrito_em: '2026-12-02T12:00:00.000Z',
    });
    const calls = mockFetch(({ url }) => {
      if (url === '/api/painel/events/7/abertura/') return { status: 200, body: drawn };
      if (url.startsWith('/api/painel/events/7/sorteio/inscricoes/'))
        return {
          status: 200,
          body: {
            results: url.includes('pagina=2')
              ? [entry(51, 'nao_sorteado')]
              : [entry(1, 'sorteado'), entry(2, 'pago'), entry(3, 'expirado')],
            count: 51,
            page_size: 50,
          },
        };
      if (url.startsWith('/api/painel/events/7/sorteio/inscricoes.csv')) return { status: 200, body: 'csv' };
      return undefined;
    });
    // The download: jsdom has no object URLs and does not follow the link.
    const objectUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    const saves = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(
      [{ path: '/painel/eventos/:id/abertura', element: <OpeningPage /> }],
      '/painel/eventos/7/abertura',
    );
    const people = within(await screen.findByRole('region', { name: 'Inscritos' }));
    const table = within(await people.findByRole('table', { name: 'Inscritos no sorteio' }));
    const first = within((await table.findByRole('rowheader', { name: '1' })).closest('tr')!);
    expect(first.getByText('Corredora 1')).toBeTruthy();
    expect(first.getByText('***.456.789-**')).toBeTruthy();
    expect(first.getByText('Sorteado (pagar até 10/12/2026, 18:00)')).toBeTruthy();
    expect(table.getByText('Pagou')).toBeTruthy();
    expect(table.getByText('Prazo perdido')).toBeTruthy();

    fireEvent.change(people.getByLabelText('Buscar inscritos (número, nome, e-mail ou CPF)'), {
      target: { value: 'Corredora' },
    });
    fireEvent.submit(
      people.getByLabelText('Buscar inscritos (número, nome, e-mail ou CPF)').closest('form')!,
    );
    fireEvent.change(people.getByLabelText('Situação'), { target: { value: 'expirado' } });
    await vi.waitFor(() =>
      expect(calls.some((c) => c.url.includes('busca=Corredora') && c.url.includes('estado=expirado'))).toBe(
        true,
      ),
    );
    fireEvent.click(
      within(people.getByRole('navigation', { name: 'Páginas de inscritos' })).getByRole('button', {
        name: 'Próxima',
      }),
    );
    expect(await table.findByRole('rowheader', { name: '51' })).toBeTruthy();
    expect(people.getByText(/Página 2 de 2/)).toBeTruthy();

    fireEvent.click(people.getByRole('button', { name: 'Exportar inscritos (CSV)' }));
    await vi.waitFor(() =>
      expect(calls.map((c) => c.url)).toContain(
        '/api/painel/events/7/sorteio/inscricoes.csv?estado=expirado&busca=Corredora',
      ),
    );
    await vi.waitFor(() => expect(saves).toHaveBeenCalledOnce());
    saves.mockRestore();
    Object.assign(URL, objectUrls);
  });

  it('reserves places of a distance for a team by its code and ends the reserve', async () => {
    const quota = (o: Partial<PainelTeamQuota>): PainelTeamQuota => ({
      id: 1,
      equipe: { id: 3, nome: 'Assessoria Vento Norte', codigo: 'PW2NADP5' },
      categoria: { id: 12, nome: '10 km' },
      vagas: 20,
      usadas: 0,
      ate: null,
      vigente: true,
      ...o,
    });
    let list: PainelTeamQuota[] = [];
    const calls = mockFetch(({ method, url, body }) => {
      if (url === '/api/painel/events/7/abertura/') return { status: 200, body: saved };
      if (url === '/api/painel/events/7/')
        return {
          status: 200,
          body: {
            id: 7,
            dias_evento: [
              {
                data: '2026-12-20',
                categorias: [
                  { id: 11, nome_categoria: '5 km' },
                  { id: 12, nome_categoria: '10 km' },
                ],
              },
            ],
          },
        };
      if (url !== '/api/painel/events/7/cotas-equipes/') return undefined;
      if (method === 'PUT') {
        const b = body as { vagas: number; encerrar?: boolean };
        if (b.vagas > 100)
          return {
            status: 409,
            body: {
              detail: 'Só 80 vagas estão livres nesta distância para reservar.',
              code: 'vagas_insuficientes',
            },
          };
        list = [quota({ vagas: b.vagas, usadas: 4, vigente: !b.encerrar })];
      }
      return { status: 200, body: list };
    });
    renderRoutes(
      [{ path: '/painel/eventos/:id/abertura', element: <OpeningPage /> }],
      '/painel/eventos/7/abertura',
    );
    const region = within(await screen.findByRole('region', { name: 'Vagas reservadas para equipes' }));
    expect(await region.findByText('Nenhuma vaga reservada.')).toBeTruthy();
    await region.findByRole('option', { name: '10 km' });

    fireEvent.change(region.getByLabelText('Código da equipe'), { target: { value: 'pw2n-adp5' } });
    fireEvent.change(region.getByLabelText('Distância reservada'), { target: { value: '12' } });
    fireEvent.change(region.getByLabelText('Vagas reservadas'), { target: { value: '500' } });
    fireEvent.click(region.getByRole('button', { name: 'Reservar vagas' }));
    expect(await region.findByText('Só 80 vagas estão livres nesta distância para reservar.')).toBeTruthy();

    fireEvent.change(region.getByLabelText('Vagas reservadas'), { target: { value: '20' } });
    fireEvent.change(region.getByLabelText('Reserva vale até (vazio: até encerrar)'), {
      target: { value: '2026-12-10T18:00' },
    });
    fireEvent.click(region.getByRole('button', { name: 'Reservar vagas' }));
    expect(await region.findByText('Vagas reservadas para a equipe.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({
      codigo: 'pw2n-adp5',
      categoria: 12,
      vagas: 20,
      ate: '2026-12-10T18:00:00-03:00',
    });
    expect(region.getByRole('rowheader', { name: 'Assessoria Vento Norte (PW2NADP5)' })).toBeTruthy();
    expect(region.getByText('Valendo: 16 vagas livres')).toBeTruthy();

    fireEvent.click(
      region.getByRole('button', { name: 'Encerrar a reserva da equipe Assessoria Vento Norte em 10 km' }),
    );
    expect(await region.findByText(/Reserva da equipe Assessoria Vento Norte encerrada/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({
      codigo: 'PW2NADP5',
      categoria: 12,
      vagas: 20,
      encerrar: true,
    });
    expect(region.getByText('Encerrada')).toBeTruthy();
  });
});
