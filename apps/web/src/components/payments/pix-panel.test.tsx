import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Call, configAnswer, mockFetch } from './fetch-mock.test-utils.ts';
import { PIX_POLL_MS } from './payments-api.ts';
import { PixPanel } from './pix-panel.tsx';

const created = {
  qrcode_base64: 'data:image/png;base64,iVBORw0KGgo=',
  pix_copiaecola: '00020101021226830014br.gov.bcb.pix',
  txid: 'tx123',
  valor: 150.5,
  expira_em: '2030-01-01T00:00:00.000Z',
};

function renderPanel(onPaid = vi.fn(), onError?: (m: string) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PixPanel
        finalidade="pedido"
        draft={{ items: [], address_id: 1, frete: 'PAC', metodo_pagamento: 'pix' }}
        totalCents={15050}
        descricao="Pedido Passada"
        onPaid={onPaid}
        {...(onError ? { onError } : {})}
      />
    </QueryClientProvider>,
  );
  return onPaid;
}

const statusCalls = (calls: Call[]) => calls.filter((c) => c.url.startsWith('/api/status-pix/'));

/** Lets pending fetch promises and React updates settle. */
const flush = () => act(async () => {});

beforeEach(() => {
  // Only the poll interval is faked: promises and React's own scheduling stay real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PixPanel', () => {
  it('creates the charge, polls every 7 s and stops once the charge is CONCLUIDA', async () => {
    const answers = ['ATIVA', 'CONCLUIDA'];
    const calls = mockFetch(({ method, url }) => {
      if (method === 'POST' && url === '/api/pagar-pix/') return { status: 201, body: created };
      if (url === '/api/status-pix/tx123/') {
        const status = answers.shift() ?? 'ATIVA';
        return { status: 200, body: status === 'CONCLUIDA' ? { status, pedido_id: 42 } : { status } };
      }
      return undefined;
    });
    const onPaid = renderPanel();

    expect(await screen.findByAltText('QR Code Pix')).toBeTruthy();
    expect((screen.getByLabelText('Pix copia e cola') as HTMLTextAreaElement).value).toBe(
      created.pix_copiaecola,
    );
    expect((screen.getByLabelText('Pix copia e cola') as HTMLTextAreaElement).readOnly).toBe(true);
    const create = calls.find((c) => c.url === '/api/pagar-pix/');
    expect(create?.body).toMatchObject({ total: 150.5, finalidade: 'pedido', pedido: { address_id: 1 } });

    await act(() => vi.advanceTimersByTimeAsync(PIX_POLL_MS - 1));
    expect(statusCalls(calls)).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await flush();
    expect(statusCalls(calls)).toHaveLength(1);
    expect(onPaid).not.toHaveBeenCalled();
    expect(screen.getByText('Aguardando pagamento...')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(PIX_POLL_MS));
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect(statusCalls(calls)).toHaveLength(2);
    expect(onPaid).toHaveBeenCalledWith({ txid: 'tx123', fulfilledId: 42 });

    await act(() => vi.advanceTimersByTimeAsync(PIX_POLL_MS * 5));
    await flush();
    expect(statusCalls(calls)).toHaveLength(2);
    expect(onPaid).toHaveBeenCalledTimes(1);
    // Exactly one charge, however often the panel re-rendered.
    expect(calls.filter((c) => c.url === '/api/pagar-pix/')).toHaveLength(1);
  });

  it('in simulated mode "Simular pagamento" pays at the simulated bank and checks at once', async () => {
    let paid = false;
    const calls = mockFetch(({ method, url }) => {
      if (url === '/api/config/') return configAnswer('simulado');
      if (method === 'POST' && url === '/api/pagar-pix/') return { status: 201, body: created };
      if (url === '/api/simulador/pix/tx123/pagar') {
        paid = true;
        return { status: 200, body: { txid: 'tx123', status: 'CONCLUIDA' } };
      }
      if (url === '/api/status-pix/tx123/')
        return { status: 200, body: { status: paid ? 'CONCLUIDA' : 'ATIVA' } };
      return undefined;
    });
    const onPaid = renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Simular pagamento' }));
    await flush();
    await flush();
    expect(onPaid).toHaveBeenCalledWith({ txid: 'tx123' });
    expect(statusCalls(calls)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Simular pagamento' })).toBeNull();
  });

  it('hides "Simular pagamento" when the server uses a real provider', async () => {
    mockFetch(({ method, url }) => {
      if (url === '/api/config/') return configAnswer('efi');
      return method === 'POST' && url === '/api/pagar-pix/' ? { status: 201, body: created } : undefined;
    });
    renderPanel();
    expect(await screen.findByAltText('QR Code Pix')).toBeTruthy();
    await flush();
    expect(screen.queryByRole('button', { name: 'Simular pagamento' })).toBeNull();
  });

  it("passes the API's detail on (e.g. stock gone) and never polls", async () => {
    const calls = mockFetch(({ url }) =>
      url === '/api/pagar-pix/'
        ? {
            status: 409,
            body: { detail: 'Estoque insuficiente para Camiseta Sertão (M, Preto).', code: 'sem_estoque' },
          }
        : undefined,
    );
    const onError = vi.fn();
    renderPanel(vi.fn(), onError);
    await flush();
    await flush();
    expect(onError).toHaveBeenCalledWith('Estoque insuficiente para Camiseta Sertão (M, Preto).');
    await act(() => vi.advanceTimersByTimeAsync(PIX_POLL_MS * 2));
    expect(statusCalls(calls)).toHaveLength(0);
  });
});
