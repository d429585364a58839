import type { ResultPage, ResultRow, RunnerResult } from '@passada/core/contracts/results';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import ResultsPage from './results-page.tsx';
import RunnerResultPage from './runner-result-page.tsx';

const row = (over: Partial<ResultRow>): ResultRow => ({
  numero: 100,
  nome: 'Ana Lima',
  equipe: 'Assessoria Sol',
  categoria_id: 2,
  categoria: '10 km',
  dia: '2026-12-22',
  genero: 'Feminino',
  faixa_etaria: 'F35-39',
  situacao: 'OK',
  tempo_bruto: '0:39:00',
  tempo_liquido: '0:38:50',
  ritmo: '3:53/km',
  colocacao_geral: 1,
  colocacao_genero: 1,
  colocacao_faixa: 1,
  ...over,
});

const page: ResultPage = {
  evento: { id: 7, nome: 'Corrida dos Resultados', data: '2026-12-22' },
  publicado: true,
  results: [
    row({}),
    row({
      numero: 106,
      nome: 'Gustavo Pires',
      equipe: null,
      situacao: 'DNF',
      tempo_bruto: null,
      tempo_liquido: null,
      ritmo: null,
      colocacao_geral: null,
      colocacao_genero: null,
      colocacao_faixa: null,
    }),
  ],
  count: 2,
  page: 1,
  pages: 1,
  filtros: { categorias: [{ id: 2, nome: '10 km', dia: '2026-12-22' }], faixas: ['F35-39', 'M30-34'] },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('results pages', () => {
  it('lists places, times and statuses, and searches with the filters in the address', async () => {
    const calls = mockFetch(({ url }) =>
      url.startsWith('/api/events/7/resultados/') ? { status: 200, body: page } : undefined,
    );
    const router = renderRoutes(
      [{ path: '/eventos/resultados/:id', element: <ResultsPage /> }],
      '/eventos/resultados/7',
    );
    const table = await screen.findByRole('table', { name: 'Resultados de Corrida dos Resultados' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first!.textContent).toContain('1º');
    expect(first!.textContent).toContain('0:38:50');
    expect(within(first!).getByRole('link', { name: 'Ana Lima' }).getAttribute('href')).toBe(
      '/eventos/resultados/7/100',
    );
    expect(second!.textContent).toContain('Não concluiu (DNF)');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Nome, número de peito ou equipe' }), {
      target: { value: 'ana' },
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'Faixa etária' }), { target: { value: 'F35-39' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?busca=ana&faixa=F35-39'));
    await vi.waitFor(() =>
      expect(calls.at(-1)?.url).toBe('/api/events/7/resultados/?busca=ana&faixa=F35-39'),
    );
    expect(screen.getByRole('option', { name: 'Feminino, 35 a 39 anos' })).toBeTruthy();
  });

  it("shows a runner's places out of how many finished", async () => {
    const runner: RunnerResult = {
      evento: { id: 7, nome: 'Corrida dos Resultados', data: '2026-12-22', cidade: 'Fortaleza' },
      depois_da_chegada: {
        camisa_finisher_id: 31,
        proxima_edicao: { id: 9, nome: 'Corrida dos Resultados 2027', data: '2027-12-21' },
      },
      fotos: [
        {
          id: 4,
          url: '/api/media/uploads/resultados/aaaa-800.webp',
          grande: '/api/media/uploads/resultados/aaaa-1200.webp',
        },
        {
          id: 6,
          url: '/api/media/uploads/resultados/bbbb-800.webp',
          grande: '/api/media/uploads/resultados/bbbb-1200.webp',
        },
      ],
      provas: [
        {
          ...row({ colocacao_genero: 2, colocacao_faixa: 1 }),
          distancia_km: 10,
          concluintes_geral: 6,
          concluintes_genero: 3,
          concluintes_faixa: 2,
        },
      ],
    };
    const shirt = {
      id: 31,
      name: 'Camiseta Finisher 2026',
      price: 89.9,
      stock: [
        { color: { id: 1, name: 'Preto', hex: '#000000' }, size: { id: 1, name: 'P' }, quantity: 0 },
        { color: { id: 1, name: 'Preto', hex: '#000000' }, size: { id: 2, name: 'M' }, quantity: 4 },
      ],
    };
    mockFetch(({ url }) =>
      url === '/api/events/7/resultados/100/'
        ? { status: 200, body: runner }
        : url === '/api/products/31/'
          ? { status: 200, body: shirt }
          : undefined,
    );
    renderRoutes(
      [{ path: '/eventos/resultados/:id/:numero', element: <RunnerResultPage /> }],
      '/eventos/resultados/7/100',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana Lima' })).toBeTruthy();
    const race = screen.getByRole('region', { name: '10 km (22/12/2026)' });
    expect(race.textContent).toContain('Colocação geral1º de 6');
    expect(race.textContent).toContain('No gênero (Feminino)2º de 3');
    expect(race.textContent).toContain('Ritmo3:53/km');
    expect(within(race).getByRole('link', { name: 'Baixar certificado (PDF)' }).getAttribute('href')).toBe(
      '/api/events/7/resultados/100/certificado.pdf',
    );
    // Back to the shop: the finisher shirt in the sizes left, and the next edition in one link.
    const after = await screen.findByRole('region', { name: 'Depois da chegada' });
    await vi.waitFor(() => expect(after.textContent).toContain('Tamanhos disponíveis: M.'));
    expect(within(after).getByRole('link', { name: 'Camiseta Finisher 2026' }).getAttribute('href')).toBe(
      '/produto/31',
    );
    expect(
      within(after).getByRole('link', { name: 'Garanta a sua vaga na próxima edição' }).getAttribute('href'),
    ).toBe('/eventos/register/9');
    // The bib's photos, free, each opening its larger copy.
    const photos = screen.getByRole('region', { name: 'Fotos da prova' });
    expect(
      within(photos).getByRole('img', { name: 'Foto 2 de 2 de Ana Lima na prova' }).getAttribute('src'),
    ).toBe('/api/media/uploads/resultados/bbbb-800.webp');
    expect(
      within(photos).getByRole('link', { name: 'Abrir a foto 1 em tamanho grande' }).getAttribute('href'),
    ).toBe('/api/media/uploads/resultados/aaaa-1200.webp');
  });
});
