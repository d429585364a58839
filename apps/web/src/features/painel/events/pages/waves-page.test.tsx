import type { PainelWaves } from '@passada/core/contracts/waves';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import WavesPage from './waves-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const change = (form: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(form).getByLabelText(label), { target: { value } });

describe('WavesPage', () => {
  it('sets a category’s waves in order, the last one taking the rest, and shows the server’s refusal', async () => {
    let current: PainelWaves = [{ categoria_id: 3, categoria: '10 km', ondas: [] }];
    let refuse = false;
    const calls = mockFetch(({ method, url, body }) => {
      if (url === '/api/painel/events/7/ondas/') return { status: 200, body: current };
      if (url === '/api/painel/events/7/categorias/3/ondas/' && method === 'PUT') {
        if (refuse)
          return {
            status: 409,
            body: { detail: 'Uma onda com inscritos não pode ser removida.', code: 'onda_com_inscritos' },
          };
        const sent = (
          body as { ondas: Array<{ nome: string; ate: string | null; capacidade: number | null }> }
        ).ondas;
        current = [
          {
            categoria_id: 3,
            categoria: '10 km',
            ondas: sent.map((o, i) => ({ id: i + 1, ...o, ocupadas: i === 0 ? 4 : 0 })),
          },
        ];
        return { status: 200, body: current };
      }
      return undefined;
    });
    renderRoutes([{ path: '/painel/eventos/:id/ondas', element: <WavesPage /> }], '/painel/eventos/7/ondas');
    const form = await screen.findByRole('form', { name: 'Ondas de 10 km' });
    expect(within(form).getByText('Largada única (sem ondas).')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar onda em 10 km' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Adicionar onda em 10 km' }));
    change(form, 'Tempo estimado até (h:mm), onda 1', '0:50');
    change(form, 'Vagas (opcional), onda 1', '300');
    expect(
      (within(form).getByLabelText('Tempo estimado até (h:mm), onda 2') as HTMLInputElement).disabled,
    ).toBe(true);
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar ondas de 10 km' }));
    await within(form).findByText('Ondas salvas.');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      ondas: [
        { nome: 'Onda A', ate: '0:50', capacidade: 300 },
        { nome: 'Onda B', ate: null, capacidade: null },
      ],
    });
    // The wave holding runners offers no removal; the empty one does.
    expect(within(form).getByText('4 inscritos')).toBeTruthy();
    expect(within(form).queryByRole('button', { name: 'Remover a onda 1' })).toBeNull();
    refuse = true;
    fireEvent.click(within(form).getByRole('button', { name: 'Salvar ondas de 10 km' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/não pode ser removida/);
  });

  it('gives a wave to those registered before the waves existed and says how many', async () => {
    const waves = (ocupadas: [number, number]): PainelWaves => [
      {
        categoria_id: 3,
        categoria: '10 km',
        ondas: [
          { id: 1, nome: 'Onda A', ate: '0:50', capacidade: 2, ocupadas: ocupadas[0] },
          { id: 2, nome: 'Onda B', ate: null, capacidade: null, ocupadas: ocupadas[1] },
        ],
      },
    ];
    let given = 3;
    mockFetch(({ method, url }) => {
      if (url === '/api/painel/events/7/ondas/') return { status: 200, body: waves([0, 0]) };
      if (url === '/api/painel/events/7/categorias/3/ondas/distribuir/' && method === 'POST') {
        const body = { atribuidas: given, categorias: waves([2, 1]) };
        given = 0;
        return { status: 200, body };
      }
      return undefined;
    });
    renderRoutes([{ path: '/painel/eventos/:id/ondas', element: <WavesPage /> }], '/painel/eventos/7/ondas');
    const form = await screen.findByRole('form', { name: 'Ondas de 10 km' });
    const button = within(form).getByRole('button', { name: 'Dar onda a quem ainda não tem em 10 km' });
    fireEvent.click(button);
    await within(form).findByText('3 inscritos receberam onda.');
    expect(within(form).getByText('2 inscritos')).toBeTruthy();
    expect(within(form).getByText('1 inscrito')).toBeTruthy();
    fireEvent.click(button);
    await within(form).findByText('Todos os inscritos já têm onda.');
  });
});
