import type { PainelEvent, PainelRegistrationDetail } from '@passada/core/contracts/painel';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { RegistrationChange } from './registration-change.tsx';

const registration = {
  inscricao: {
    id: 7,
    categorias: [{ id: 11, nome: '5 km', dia: '2026-11-28', numero_peito: null }],
    tamanho_camisa: 'M',
  },
  evento: { id: 5, nome: 'Corrida da Equipe' },
} as unknown as PainelRegistrationDetail;

const event = {
  id: 5,
  dias_evento: [
    {
      data: '2026-11-28',
      categorias: [
        { id: 11, nome_categoria: '5 km', restantes: 9, vendidas: 1 },
        { id: 12, nome_categoria: '10 km', restantes: 1, vendidas: 0 },
        { id: 13, nome_categoria: '21 km', restantes: 0, vendidas: 5 },
      ],
    },
  ],
  kit_tamanhos: [
    { id: 21, tamanho: 'M', capacidade: 10, restantes: 9, vendidas: 1 },
    { id: 22, tamanho: 'G', capacidade: 1, restantes: 1, vendidas: 0 },
  ],
} as unknown as PainelEvent;

const show = () =>
  renderRoutes(
    [{ path: '/painel/inscricoes/:id', element: <RegistrationChange registration={registration} /> }],
    '/painel/inscricoes/7',
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RegistrationChange', () => {
  it("offers the day's other distances and the other sizes with what is left, and sends the change", async () => {
    let refuse = true;
    const calls = mockFetch(({ method, url }) => {
      if (url === '/api/painel/events/5/') return { status: 200, body: event };
      if (url === '/api/painel/registrations/7/alterar/' && method === 'POST')
        return refuse
          ? { status: 409, body: { detail: 'Categoria esgotada: 10 km.', code: 'esgotado' } }
          : { status: 200, body: registration };
      return undefined;
    });
    show();
    const distance = await screen.findByRole('combobox', { name: 'Distância nova' });
    const options = [...(distance as HTMLSelectElement).options].map((o) => [o.text, o.disabled]);
    expect(options).toEqual([
      ['Manter 5 km', false],
      ['10 km (1 vagas)', false],
      ['21 km (esgotada)', true],
    ]);
    const save = screen.getByRole('button', { name: 'Salvar alteração' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(distance, { target: { value: '12' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Tamanho da camisa novo' }), {
      target: { value: '22' },
    });
    fireEvent.click(save);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Categoria esgotada: 10 km/);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ de: 11, para: 12, tamanho_camisa: 22 });

    refuse = false;
    fireEvent.click(save);
    expect((await screen.findByRole('status', {}, { timeout: 2_000 })).textContent).toMatch(
      /Inscrição alterada/,
    );
  });
});
