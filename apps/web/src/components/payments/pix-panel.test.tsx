import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Call, configAnswer, mockFetch } from '../../test/fetch-mock.test-utils.ts';
import { PIX_POLL_MS } from './payments-api.ts';
import { formatCountdown } from './pix-countdown.tsx';
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

  it('counts down to the deadline, speaks only at 5 min, 1 min and expiry, then offers a new Pix', async () => {
    const start = Date.parse('2030-01-01T12:00:00.000Z');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], now: start });
    const charges = [
      { ...created, txid: 'tx1', expira_em: new Date(start + 6 * 60_000).toISOString() },
      { ...created, txid: 'tx2', pix_copiaecola: '00020101second', expira_em: '2030-01-01T13:00:00.000Z' },
    ];
    const calls = mockFetch(({ method, url }) => {
      if (method === 'POST' && url === '/api/pagar-pix/') return { status: 201, body: charges.shift() };
      if (url.startsWith('/api/status-pix/')) return { status: 200, body: { status: 'ATIVA' } };
      return undefined;
    });
    renderPanel();
    expect(await screen.findByAltText('QR Code Pix')).toBeTruthy();
    const timer = screen.getByRole('timer');
    expect(timer.textContent).toBe('Expira em 06:00');
    expect(timer.getAttribute('aria-live')).toBe('off');
    const spoken = () => screen.getAllByRole('status').map((s) => s.textContent);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(timer.textContent).toBe('Expira em 05:59');
    expect(spoken()).not.toContain('Faltam 5 minutos para o Pix expirar.');
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(timer.textContent).toBe('Expira em 04:59');
    expect(spoken()).toContain('Faltam 5 minutos para o Pix expirar.');
    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000));
    expect(screen.getByRole('timer').textContent).toBe('Expira em 00:59');
    expect(spoken()).toContain('Falta 1 minuto para o Pix expirar.');
    expect(spoken()).not.toContain('Faltam 5 minutos para o Pix expirar.');

    await act(() => vi.advanceTimersByTimeAsync(59_000));
    await flush();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByAltText('QR Code Pix')).toBeNull();
    expect(screen.getByText('Pix expirado')).toBeTruthy();
    expect(spoken()).toContain('Pix expirado. Gere um novo Pix para pagar.');
    // At the deadline the server is asked at once, without waiting for the next 7 s read.
    expect(statusCalls(calls).at(-1)?.url).toBe('/api/status-pix/tx1/');

    fireEvent.click(screen.getByRole('button', { name: 'Gerar novo Pix' }));
    await flush();
    await flush();
    expect((screen.getByLabelText('Pix copia e cola') as HTMLTextAreaElement).value).toBe('00020101second');
    expect(screen.getByRole('timer').textContent).toBe('Expira em 54:00');
    const creations = calls.filter((c) => c.url === '/api/pagar-pix/');
    expect(creations).toHaveLength(2);
    expect(creations[1]?.body).toEqual(creations[0]?.body);
  });

  it('shows hours when the deadline is an hour or more away', async () => {
    expect(formatCountdown(899)).toBe('14:59');
    expect(formatCountdown(3600)).toBe('1:00:00');
    expect(formatCountdown(0)).toBe('00:00');
  });
});
