import type { PainelReturn } from '@passada/core/contracts/returns';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import ReturnsPage from './returns-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const received = (sugestao: number): PainelReturn => ({
  id: 31,
  pedido: 12,
  tipo: 'devolucao',
  status: 'recebida',
  motivo: 'arrependimento',
  descricao: null,
  motivo_recusa: null,
  codigo_postagem: null,
  instrucoes: null,
  itens: [
    {
      item_id: 5,
      produto: 'Regata Sol',
      cor: 'Azul',
      tamanho: 'M',
      quantidade: 1,
      valor: 0,
      voltou_ao_estoque: true,
    },
  ],
  inscricoes: [],
  valor_reembolsado: 0,
  criado_em: '2026-11-20T13:00:00.000Z',
  versao: 3,
  cliente: 'Maria Souza',
  email: 'maria@example.com',
  pago: 79.9,
  reembolsado: 0,
  restante: 79.9,
  sugestao,
});

describe('the returns queue: "Reembolsar"', () => {
  it('waits for an amount above R$ 0,00 and within what is left', async () => {
    mockFetch(({ url }) =>
      url === '/api/painel/devolucoes/' ? { status: 200, body: [received(0)] } : undefined,
    );
    renderRoutes([{ path: '/painel/devolucoes', element: <ReturnsPage /> }], '/painel/devolucoes');
    const card = within(await screen.findByRole('article', { name: 'Devolução nº 31' }));
    const button = () => card.getByRole('button', { name: 'Reembolsar' }) as HTMLButtonElement;
    const field = card.getByRole('textbox', { name: 'Valor a reembolsar da solicitação 31 (R$)' });
    expect((field as HTMLInputElement).value).toBe('0,00');
    expect(button().disabled).toBe(true);
    fireEvent.change(field, { target: { value: '25,90' } });
    expect(button().disabled).toBe(false);
    fireEvent.change(field, { target: { value: '80,00' } });
    expect(button().disabled).toBe(true);
  });
});

describe('the returns queue: the posting code', () => {
  it('sends the typed code with the version and shows the server’s refusal', async () => {
    const waiting: PainelReturn = {
      ...received(0),
      status: 'codigo_enviado',
      codigo_postagem: 'LR123456785BR',
      versao: 1,
    };
    const calls = mockFetch(({ method, url, body }) => {
      if (method === 'GET' && url === '/api/painel/devolucoes/') return { status: 200, body: [waiting] };
      if (method === 'POST' && url === '/api/painel/devolucoes/31/codigo/')
        return (body as { codigo: string }).codigo === '482913075'
          ? { status: 200, body: { ...waiting, codigo_postagem: '482913075', versao: 2 } }
          : {
              status: 400,
              body: {
                detail: 'Dados inválidos: codigo: Código de postagem inválido.',
                code: 'validation_error',
              },
            };
      return undefined;
    });
    renderRoutes([{ path: '/painel/devolucoes', element: <ReturnsPage /> }], '/painel/devolucoes');
    const card = within(await screen.findByRole('article', { name: 'Devolução nº 31' }));
    const field = card.getByRole('textbox', { name: 'Código de postagem da Devolução nº 31' });
    const send = () => card.getByRole('button', { name: 'Trocar o código e avisar o cliente' });
    expect((send() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'qualquer coisa' } });
    fireEvent.click(send());
    expect(await card.findByRole('alert')).toBeTruthy();
    expect(card.getByRole('alert').textContent).toContain('Código de postagem inválido');
    fireEvent.change(field, { target: { value: '482913075' } });
    fireEvent.click(send());
    await vi.waitFor(() => expect((field as HTMLInputElement).value).toBe(''));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([
      { codigo: 'qualquer coisa', versao: 1 },
      { codigo: '482913075', versao: 1 },
    ]);
  });
});
