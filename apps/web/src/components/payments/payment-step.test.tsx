import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render-routes.test-utils.tsx';
import {
  approved,
  type Call,
  configAnswer,
  fillValid,
  installments,
  mockFetch,
} from './fetch-mock.test-utils.ts';
import {
  type Payment,
  type PaymentMethod,
  PaymentStep,
  SUCCESS_REDIRECT_MS,
  usePaymentStep,
} from './payment-step.tsx';

const created = {
  qrcode_base64: 'data:image/png;base64,iVBORw0KGgo=',
  pix_copiaecola: '00020101021226830014br.gov.bcb.pix',
  txid: 'tx123',
  valor: 200,
  expira_em: '2030-01-01T00:00:00.000Z',
};

/** The simulated provider: Pix paid by "Simular pagamento", cards tokenized and approved. */
function serve(): Call[] {
  let pixPaid = false;
  return mockFetch(({ method, url }) => {
    if (url === '/api/config/') return configAnswer('simulado');
    if (method === 'POST' && url === '/api/pagar-pix/') return { status: 201, body: created };
    if (url === '/api/simulador/pix/tx123/pagar') {
      pixPaid = true;
      return { status: 200, body: { txid: 'tx123', status: 'CONCLUIDA' } };
    }
    if (url === '/api/status-pix/tx123/')
      return { status: 200, body: { status: pixPaid ? 'CONCLUIDA' : 'ATIVA' } };
    if (url.startsWith('/api/parcelas/')) return { status: 200, body: installments };
    if (url === '/api/simulador/cartao/token') return { status: 200, body: { payment_token: 'tok_abc' } };
    if (url === '/api/pagar-cartao/') return { status: 200, body: approved() };
    return undefined;
  });
}

interface Setup {
  method: PaymentMethod;
  leaveOnClose: boolean;
  fulfil?: (payment: Payment) => Promise<unknown>;
}

function renderStep({ method, leaveOnClose, fulfil = vi.fn(async () => ({})) }: Setup) {
  const onLeave = vi.fn();
  const showAlert = vi.fn();
  const locks: boolean[] = [];
  function Checkout() {
    const step = usePaymentStep({
      fulfil,
      texts: {
        finishing: 'Finalizando pedido...',
        failure: 'Erro ao finalizar a compra!',
        successTitle: 'Pedido realizado com sucesso!',
        successText: 'Você será levado aos seus pedidos em instantes.',
      },
      redirectTo: '/user/pedidos',
      leaveOnClose,
      onLeave,
      showAlert,
    });
    locks.push(step.locked);
    return (
      <PaymentStep
        step={step}
        method={method}
        purpose="pedido"
        draft={{ items: [{ product: 1, quantity: 1, color: 1, size: 1 }], address_id: 3 }}
        totalCents={20000}
        description="Camiseta Sertão"
        payer={{ email: 'ana@example.com' }}
      />
    );
  }
  const router = renderRoutes(
    [
      { path: '/revisar-pedido', Component: Checkout },
      { path: '/user/pedidos', element: <h1>Meus pedidos</h1> },
    ],
    '/revisar-pedido',
  );
  return { router, fulfil, onLeave, showAlert, locks };
}

const successDialog = () => screen.findByRole('dialog', { name: 'Pedido realizado com sucesso!' });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-06-15T12:00:00-03:00'));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PaymentStep', () => {
  it('Pix: a paid charge is fulfilled once, confirmed, and after 10 s the buyer moves on', async () => {
    serve();
    const { router, fulfil, onLeave, locks } = renderStep({ method: 'pix', leaveOnClose: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Simular pagamento' }));
    expect(await successDialog()).toBeTruthy();
    expect(fulfil).toHaveBeenCalledTimes(1);
    expect(fulfil).toHaveBeenCalledWith({ method: 'pix', id: 'tx123', precoJuros: null });
    expect(locks.at(-1)).toBe(true);

    // Closing only closes: the 10 s still run before leaving.
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/revisar-pedido');
    expect(onLeave).not.toHaveBeenCalled();

    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_REDIRECT_MS));
    expect(router.state.location.pathname).toBe('/user/pedidos');
    expect(onLeave).toHaveBeenCalledTimes(1);
    expect(fulfil).toHaveBeenCalledTimes(1);
  });

  it('card: the approved charge and its interest are fulfilled; closing leaves at once when asked to', async () => {
    const calls = serve();
    const { router, fulfil, onLeave } = renderStep({ method: 'cartao', leaveOnClose: true });
    await fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Pagar com cartão' }));
    expect(await successDialog()).toBeTruthy();
    expect(fulfil).toHaveBeenCalledWith({ method: 'cartao', id: 'cartao-simulado-77', precoJuros: 200.01 });
    expect(calls.filter((c) => c.url === '/api/pagar-cartao/')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/pedidos'));
    expect(onLeave).toHaveBeenCalledTimes(1);
    // The pending redirect was cancelled with the early exit: nothing runs twice.
    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_REDIRECT_MS));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('a failed fulfilment shows the failure text, no confirmation, and clears nothing', async () => {
    serve();
    const fulfil = vi.fn(() => Promise.reject(new Error('409')));
    const { router, onLeave, showAlert, locks } = renderStep({
      method: 'pix',
      leaveOnClose: true,
      fulfil,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Simular pagamento' }));
    await waitFor(() => expect(showAlert).toHaveBeenCalledWith('Erro ao finalizar a compra!'));
    expect(screen.queryByRole('dialog', { name: 'Pedido realizado com sucesso!' })).toBeNull();
    expect(locks.at(-1)).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(SUCCESS_REDIRECT_MS));
    expect(router.state.location.pathname).toBe('/revisar-pedido');
    expect(onLeave).not.toHaveBeenCalled();
  });
});
