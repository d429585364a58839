import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  approved,
  type Call,
  configAnswer,
  fillValid,
  installments,
  mockFetch,
} from '../../test/fetch-mock.test-utils.ts';
import { renderRoutes } from '../../test/render-routes.test-utils.tsx';
import {
  type Payment,
  type PaymentMethod,
  PaymentStep,
  SUCCESS_REDIRECT_MS,
  usePaymentStep,
} from './payment-step.tsx';
import { CARD_REVIEW_POLL_MS } from './payments-api.ts';

const created = {
  qrcode_base64: 'data:image/png;base64,iVBORw0KGgo=',
  pix_copiaecola: '00020101021226830014br.gov.bcb.pix',
  txid: 'tx123',
  valor: 200,
  expira_em: '2030-01-01T00:00:00.000Z',
};

/** The simulated provider: Pix paid by "Simular pagamento", cards tokenized and approved. */
function serve(review?: { settles: 'CONCLUIDA' | 'RECUSADA' }): Call[] {
  let reads = 0;
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
    if (url === '/api/pagar-cartao/' && review)
      return { status: 202, body: { ...approved('em_analise'), txid: 'cartaosimulado77' } };
    if (url === '/api/pagar-cartao/') return { status: 200, body: approved() };
    if (url === '/api/status-pix/cartaosimulado77/' && review) {
      reads += 1;
      if (reads < 2) return { status: 200, body: { status: 'EM_ANALISE' } };
      return {
        status: 200,
        body:
          review.settles === 'CONCLUIDA'
            ? { status: 'CONCLUIDA', pedido_id: 9 }
            : { status: 'RECUSADA', motivo: 'Cartão bloqueado.' },
      };
    }
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
  vi.useFakeTimers({
    shouldAdvanceTime: true,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
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

  const reviewDialog = () => screen.findByRole('dialog', { name: 'Pagamento em análise' });

  it('card under review: "Pagamento em análise" until the bank approves, then the usual confirmation', async () => {
    serve({ settles: 'CONCLUIDA' });
    const { fulfil, locks } = renderStep({ method: 'cartao', leaveOnClose: true });
    await fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Pagar com cartão' }));
    expect((await reviewDialog()).textContent).toMatch(/banco emissor do cartão está confirmando/);
    expect(locks.at(-1)).toBe(true);
    expect(fulfil).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(CARD_REVIEW_POLL_MS));
    expect(screen.getByRole('dialog', { name: 'Pagamento em análise' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(CARD_REVIEW_POLL_MS));
    expect(await successDialog()).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Pagamento em análise' })).toBeNull();
    expect(fulfil).toHaveBeenCalledTimes(1);
    expect(fulfil).toHaveBeenCalledWith({ method: 'cartao', id: 'cartaosimulado77', precoJuros: 200.01 });
  });

  it('card refused after review: the reason shows at the form, nothing is fulfilled or cleared', async () => {
    serve({ settles: 'RECUSADA' });
    const { fulfil, onLeave, locks } = renderStep({ method: 'cartao', leaveOnClose: true });
    await fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Pagar com cartão' }));
    await reviewDialog();
    await act(() => vi.advanceTimersByTimeAsync(CARD_REVIEW_POLL_MS * 2));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Pagamento recusado: Cartão bloqueado\.$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(locks.at(-1)).toBe(false);
    expect(fulfil).not.toHaveBeenCalled();
    expect(onLeave).not.toHaveBeenCalled();
  });

  it('the buyer may follow a payment under review later, from the account pages, keeping the cart', async () => {
    serve({ settles: 'CONCLUIDA' });
    const { router, fulfil, onLeave } = renderStep({ method: 'cartao', leaveOnClose: true });
    await fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Pagar com cartão' }));
    await reviewDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Acompanhar depois' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/pedidos'));
    expect(onLeave).not.toHaveBeenCalled();
    expect(fulfil).not.toHaveBeenCalled();
  });
});
