import type { Event } from '@passada/core/contracts/events';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../test/render-routes.test-utils.tsx';
import { RunnerChanges } from './runner-changes.tsx';

const category = (id: number, nome_categoria: string) => ({ id, nome_categoria, quantidade_disponivel: 10 });
const event = {
  id: 5,
  dias_evento: [
    { data: '2027-04-17', categorias: [category(1, '5 km'), category(2, '10 km'), category(3, '3 km')] },
  ],
  kit: {
    tamanhos: [
      { id: 11, tamanho: 'M', quantidade_disponivel: 5 },
      { id: 12, tamanho: 'G', quantidade_disponivel: 1 },
    ],
  },
} as unknown as Event;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = (onChanged = () => {}) =>
  renderRoutes(
    [
      {
        path: '/user/inscricoes',
        element: (
          <RunnerChanges
            base="/api/inscricoes/9"
            event={event}
            current={[1]}
            currentSize="M"
            pays={{ inscricao: 9 }}
            onChanged={onChanged}
          />
        ),
      },
    ],
    '/user/inscricoes',
  );

const quote = (over: object) => ({
  permitido: true,
  motivo: null,
  taxa: 2,
  diferenca: -20,
  a_pagar: 0,
  a_devolver: 18,
  ...over,
});

describe('changing distance and shirt together', () => {
  it('picks both, shows what comes back for the whole list and confirms once with that amount', async () => {
    const calls = mockFetch((call) => {
      if (call.url.endsWith('/alteracoes/cotacao/')) return { status: 200, body: quote({}) };
      if (call.url.endsWith('/alteracoes/'))
        return {
          status: 200,
          body: {
            inscricao: 9,
            categoria_evento: [3],
            categorias: ['3 km'],
            tamanho_camisa: 'G',
            a_devolver: 18,
            cancelada_em: null,
          },
        };
      return undefined;
    });
    const onChanged = vi.fn();
    show(onChanged);
    await userEvent.click(screen.getByRole('button', { name: 'Alterar distância e camisa' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Nova distância' }), '3 km');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Novo tamanho da camisa' }), 'G');
    expect(await screen.findByText('R$ 18,00')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar alterações' }));
    expect(
      await screen.findByText('Alterações feitas. R$ 18,00 voltam pelo mesmo meio de pagamento.'),
    ).toBeTruthy();
    const sent = calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/inscricoes/9/alteracoes/'));
    expect(sent.map((c) => c.body)).toEqual([
      {
        operacoes: [
          { tipo: 'distancia', categoria_id: 3, de: 1 },
          { tipo: 'camiseta', tamanho: 12 },
        ],
        a_devolver: 18,
      },
    ]);
    expect(onChanged).toHaveBeenCalledOnce();
  });

  it('with something to pay offers one Pix for the list instead of confirming', async () => {
    mockFetch((call) =>
      call.url.endsWith('/alteracoes/cotacao/')
        ? { status: 200, body: quote({ taxa: 5, diferenca: 30, a_pagar: 35, a_devolver: 0 }) }
        : undefined,
    );
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Alterar distância e camisa' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Nova distância' }), '10 km');
    expect(await screen.findByText('R$ 35,00')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirmar alterações' })).toBeNull();
  });

  it('says the server’s reason when the list is refused', async () => {
    mockFetch((call) =>
      call.url.endsWith('/alteracoes/cotacao/')
        ? { status: 200, body: quote({ permitido: false, motivo: 'Alteração 2: Tamanho esgotado.' }) }
        : undefined,
    );
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Alterar distância e camisa' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Novo tamanho da camisa' }), 'G');
    expect(await screen.findByText('Alteração 2: Tamanho esgotado.')).toBeTruthy();
  });
});
