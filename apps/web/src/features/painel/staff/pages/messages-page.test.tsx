import type { WhatsAppOptOut } from '@passada/core/contracts/painel';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../../../test/render-routes.test-utils.tsx';
import { OptOutSection } from './messages-page.tsx';

const parar: WhatsAppOptOut = {
  telefone: '5585999990000',
  pedido: 'PARAR',
  origem: 'whatsapp',
  pedido_em: '2026-11-20T13:00:00.000Z',
  registrado_por: null,
};

const show = () =>
  renderRoutes([{ path: '/painel/mensagens', element: <OptOutSection /> }], '/painel/mensagens');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OptOutSection (numbers that receive no more WhatsApp)', () => {
  it('lists the PARAR ones and records a request staff took, then lists it with who recorded it', async () => {
    let list = [parar];
    const calls = mockFetch(({ method, url, body }) => {
      if (url !== '/api/painel/mensagens/descadastros/') return undefined;
      if (method === 'GET') return { status: 200, body: list };
      const saved: WhatsAppOptOut = {
        telefone: '5585966665555',
        pedido: (body as { motivo: string }).motivo,
        origem: 'equipe',
        pedido_em: '2026-11-26T12:00:00.000Z',
        registrado_por: 'atendimento@passada.com.br',
      };
      list = [saved, parar];
      return { status: 201, body: saved };
    });
    show();
    const table = await screen.findByRole('table', { name: /Números que não recebem mais WhatsApp/ });
    expect(within(table).getByRole('cell', { name: 'A pessoa, pelo WhatsApp' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Número do WhatsApp'), { target: { value: '(85) 96666-5555' } });
    fireEvent.change(screen.getByLabelText('Como a pessoa pediu'), {
      target: { value: 'Ligou para a loja' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Registrar pedido' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'O número 5585966665555 não recebe mais mensagens pelo WhatsApp.',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      telefone: '(85) 96666-5555',
      motivo: 'Ligou para a loja',
    });
    expect(await screen.findByRole('cell', { name: 'atendimento@passada.com.br' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Ligou para a loja' })).toBeTruthy();
    expect((screen.getByLabelText('Número do WhatsApp') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's reason when it refuses the number", async () => {
    mockFetch(({ method, url }) => {
      if (url !== '/api/painel/mensagens/descadastros/') return undefined;
      if (method === 'GET') return { status: 200, body: [] };
      return {
        status: 400,
        body: { detail: 'Digite um telefone válido com DDD.', code: 'invalid' },
      };
    });
    show();
    expect(await screen.findByText('Nenhum número pediu para parar.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Número do WhatsApp'), { target: { value: '123' } });
    fireEvent.change(screen.getByLabelText('Como a pessoa pediu'), { target: { value: 'Por e-mail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Registrar pedido' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Digite um telefone válido com DDD.');
  });
});
